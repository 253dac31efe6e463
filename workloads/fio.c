/*
 * fio: Debian's fio, buffered, over two files on the data disk: a random
 * job with a zipf(THETA) distribution over one file (random reads, or with
 * --mode randwrite random writes that fio reads back) while a sequential
 * job streams the other: the page cache must keep the random job's hot
 * blocks while the stream passes through it (the scan-resistance case of
 * cache_ext and MGLRU's evaluations).
 *
 * Setup has fio write both files with verify=crc32c headers (each 4 KiB
 * block carries its offset and a checksum of its contents), under temporary
 * names, then puts them in place with their .meta records. The run phase
 * starts one fio with both jobs and verify=crc32c: fio checks every block
 * it reads, and a block that is lost, stale or misplaced fails the job with
 * EILSEQ, which fails the run with exit 3. fio's terse output gives each
 * job's throughput and completion latency percentiles.
 */
#include "args.h"
#include "datafile.h"
#include "driver.h"
#include "err.h"
#include "fioterse.h"
#include "spawn.h"
#include "stamp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RANDOM_FILE "fio-random.dat"
#define STREAM_FILE "fio-stream.dat"
#define MAX_ARGS 48
#define OUTPUT_MAX 65536

enum mode { MODE_RANDREAD, MODE_RANDWRITE };
enum { OBJ_RANDOM, OBJ_STREAM };

struct fio_wl {
	enum mode mode;
	const char *fio;   /* the fio program */
	const char *theta; /* zipf's theta, as fio takes it */
	uint64_t ops;      /* random job's I/Os; 0: one per block of its file */
	uint64_t stream_passes;
	uint64_t stream_size; /* bytes; 0: --size */
	const char *stream_size_arg;
	char *random_path, *stream_path;
};

static const struct wl_option options[] = {
	wl_opt_choice("mode", struct fio_wl, mode, WL_CHOICES("randread", "randwrite")),
	wl_opt_own("theta", 't'),
	wl_opt_positive("ops", struct fio_wl, ops),
	wl_opt_u64("stream-passes", struct fio_wl, stream_passes),
	wl_opt_string("stream-size", struct fio_wl, stream_size_arg),
	wl_opt_program("fio", struct fio_wl, fio, "the fio program to run"),
	{ 0 },
};

/* --theta: zipf's theta, kept as given for fio's command line. */
static int option(struct wl *w, int c, const char *arg)
{
	struct fio_wl *f = w->priv;
	double theta;

	if (c != 't')
		return 0;
	if (parse_double(arg, &theta) || theta <= 0 || theta > 100 || theta == 1)
		die(EXIT_LAB_USAGE, "bad --theta value '%s': a number above 0, not 1, up to 100", arg);
	f->theta = arg;
	return 1;
}

static void prepare(struct wl *w)
{
	struct fio_wl *f = w->priv;

	if (f->stream_size_arg)
		f->stream_size = arg_size("--stream-size", f->stream_size_arg, w->size) /
				 LAB_PAGE_SIZE * LAB_PAGE_SIZE;
	if (!f->stream_size)
		f->stream_size = w->size;
	if (!f->ops)
		f->ops = w->size / LAB_PAGE_SIZE;
	f->random_path = wl_path(w, RANDOM_FILE);
	f->stream_path = wl_path(w, STREAM_FILE);
	result_str(&w->res, "mode", f->mode == MODE_RANDWRITE ? "randwrite" : "randread");
	result_str(&w->res, "distribution", "zipf");
	result_str(&w->res, "theta", f->theta);
	result_u64(&w->res, "size_bytes", w->size);
	result_u64(&w->res, "pages", w->size / LAB_PAGE_SIZE);
	result_u64(&w->res, "stream_size_bytes", f->stream_size);
	result_u64(&w->res, "stream_passes", f->stream_passes);
	result_u64(&w->res, "ops", f->ops);
	result_u64(&w->res, "seed", w->seed);
}

struct argv {
	char *arg[MAX_ARGS + 1];
	unsigned n;
};

static void add(struct argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct argv *a, const char *fmt, ...)
{
	va_list ap;

	if (a->n == MAX_ARGS)
		die(EXIT_LAB_RUNTIME, "internal error: too many fio arguments");
	va_start(ap, fmt);
	if (vasprintf(&a->arg[a->n], fmt, ap) < 0)
		die(EXIT_LAB_RUNTIME, "out of memory");
	va_end(ap);
	a->arg[++a->n] = NULL;
}

static void argv_free(struct argv *a)
{
	for (unsigned i = 0; i < a->n; i++)
		free(a->arg[i]);
	a->n = 0;
}

/* The options both phases share: 4 KiB blocks, buffered synchronous I/O,
 * crc32c verify headers, fio's seed from --seed, the page cache left to
 * the lab (no invalidation), and readahead as --readahead says. */
static void common_args(struct wl *w, struct argv *a)
{
	struct fio_wl *f = w->priv;

	add(a, "%s", f->fio);
	add(a, "--output-format=terse");
	add(a, "--terse-version=3");
	add(a, "--bs=4k");
	add(a, "--ioengine=psync");
	add(a, "--direct=0");
	add(a, "--verify=crc32c");
	add(a, "--randseed=%llu", (unsigned long long)w->seed);
	add(a, "--invalidate=0");
	/* No verify state files in the working directory on a failure. */
	add(a, "--verify_state_save=0");
	add(a, "--fadvise_hint=%s", w->readahead ? "0" : "random");
}

/* fio's line for job name in out, parsed; 0 or -1 when there is none. */
static int find_job(const char *out, const char *name, struct fio_job *job)
{
	for (const char *line = out; *line;) {
		const char *nl = strchr(line, '\n');

		if (!fio_terse_parse(line, job) && !strcmp(job->name, name))
			return 0;
		if (!nl)
			break;
		line = nl + 1;
	}
	return -1;
}

static void lay_out(struct wl *w, const char *path, uint64_t bytes, uint64_t object)
{
	char *tmp = datafile_tmp_path(path), *out = malloc(OUTPUT_MAX);
	struct argv a = { 0 };
	struct fio_job job;
	int rc, err;

	if (!out)
		die(EXIT_LAB_RUNTIME, "out of memory");
	unlink(tmp);
	common_args(w, &a);
	add(&a, "--name=layout");
	add(&a, "--filename=%s", tmp);
	add(&a, "--size=%llu", (unsigned long long)bytes);
	add(&a, "--rw=write");
	add(&a, "--do_verify=0");
	add(&a, "--end_fsync=1");
	rc = spawn_capture((const char *const *)a.arg, NULL, out, OUTPUT_MAX);
	if (rc || find_job(out, "layout", &job) || job.error || job.write.kib * 1024 != bytes) {
		unlink(tmp);
		die(EXIT_LAB_RUNTIME, "fio could not write %s (exit %d)", path, rc);
	}
	err = datafile_commit(tmp, path, bytes / LAB_PAGE_SIZE, w->seed, object);
	if (err) {
		unlink(tmp);
		die(EXIT_LAB_RUNTIME, "cannot put %s in place: %s", path, strerror(err));
	}
	argv_free(&a);
	free(tmp);
	free(out);
}

static void setup(struct wl *w)
{
	struct fio_wl *f = w->priv;

	lay_out(w, f->random_path, w->size, OBJ_RANDOM);
	lay_out(w, f->stream_path, f->stream_size, OBJ_STREAM);
}

static void open_data(struct wl *w)
{
	struct fio_wl *f = w->priv;

	/* Checks size and setup's seed; the driver drops them from the cache.
	 * fio opens the files itself. */
	wl_open_data(w, f->random_path, w->size / LAB_PAGE_SIZE, OBJ_RANDOM, O_RDONLY);
	wl_open_data(w, f->stream_path, f->stream_size / LAB_PAGE_SIZE, OBJ_STREAM, O_RDONLY);
}

/* A job that failed: its data did not verify (EILSEQ, exit 3), or fio did
 * not run it through (exit 1). */
static void check_job(struct wl *w, const struct fio_job *job, int rc)
{
	char where[96];

	if (!job->error)
		return;
	if (job->error == EILSEQ) {
		snprintf(where, sizeof(where), "fio job %s", job->name);
		wl_verify_failed(w, where,
				 "fio's %s job read a block that differs from what it wrote "
				 "(crc32c verify, fio's message above)",
				 job->name);
	}
	die(EXIT_LAB_RUNTIME, "fio's %s job failed: %s (fio exit %d)", job->name,
	    strerror(job->error), rc);
}

static struct fio_job random_job, stream_job;

static double run(struct wl *w)
{
	struct fio_wl *f = w->priv;
	char *out = malloc(OUTPUT_MAX);
	struct argv a = { 0 };
	double elapsed;
	int rc;

	if (!out)
		die(EXIT_LAB_RUNTIME, "out of memory");
	common_args(w, &a);
	add(&a, "--percentile_list=50:99:99.9");
	add(&a, "--name=random");
	add(&a, "--filename=%s", f->random_path);
	add(&a, "--size=%llu", (unsigned long long)w->size);
	add(&a, "--random_distribution=zipf:%s", f->theta);
	/* the I/Os in bytes: number_ios alone stops at one pass of the file */
	add(&a, "--io_size=%llu", (unsigned long long)f->ops * LAB_PAGE_SIZE);
	if (f->mode == MODE_RANDWRITE) {
		add(&a, "--rw=randwrite");
		add(&a, "--do_verify=1");
		add(&a, "--verify_backlog=1024");
	} else {
		add(&a, "--rw=randread");
	}
	if (f->stream_passes) {
		add(&a, "--name=stream");
		add(&a, "--filename=%s", f->stream_path);
		add(&a, "--size=%llu", (unsigned long long)f->stream_size);
		add(&a, "--rw=read");
		add(&a, "--loops=%llu", (unsigned long long)f->stream_passes);
	}
	wl_timer_start(w);
	/* fio's stdout is its terse lines; its stderr is the workload's */
	rc = spawn_capture((const char *const *)a.arg, NULL, out, OUTPUT_MAX);
	elapsed = wl_timer_elapsed(w);
	if (find_job(out, "random", &random_job))
		die(EXIT_LAB_RUNTIME, "fio (exit %d) reported no random job", rc);
	check_job(w, &random_job, rc);
	if (f->stream_passes) {
		if (find_job(out, "stream", &stream_job))
			die(EXIT_LAB_RUNTIME, "fio (exit %d) reported no stream job", rc);
		check_job(w, &stream_job, rc);
	}
	if (rc)
		die(EXIT_LAB_RUNTIME, "fio exited with status %d", rc);
	argv_free(&a);
	free(out);
	return elapsed;
}

static void report(struct wl *w, double elapsed)
{
	struct fio_wl *f = w->priv;
	const struct fio_side *r = f->mode == MODE_RANDWRITE ? &random_job.write : &random_job.read;
	static const struct {
		const char *key;
		double p;
	} pcts[] = { { "p50_us", 50 }, { "p99_us", 99 }, { "p999_us", 99.9 } };

	(void)elapsed;
	result_num(&w->res, "ops_per_s", r->iops);
	result_u64(&w->res, "random_runtime_ms", r->runtime_ms);
	result_u64(&w->res, "random_ios", r->kib / (LAB_PAGE_SIZE / 1024));
	for (unsigned i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		int64_t us = fio_side_pct(r, pcts[i].p);

		if (us < 0)
			die(EXIT_LAB_RUNTIME, "fio printed no %g%% latency for the random job",
			    pcts[i].p);
		result_u64(&w->res, pcts[i].key, (uint64_t)us);
	}
	result_num(&w->res, "mean_us", r->clat_mean_us);
	result_u64(&w->res, "max_us", r->clat_max_us);
	if (f->mode == MODE_RANDWRITE)
		result_u64(&w->res, "verify_reads", random_job.read.kib / (LAB_PAGE_SIZE / 1024));
	if (f->stream_passes) {
		result_num(&w->res, "stream_kib_per_s", stream_job.read.kib_per_s);
		result_u64(&w->res, "stream_kib", stream_job.read.kib);
	}
}

static const struct wl_spec spec = {
	.name = "fio",
	.about = "Debian's fio, buffered: a zipf random job over one file while a\n"
		 "sequential job streams another; fio verifies every block it reads.\n",
	.help = "  --size SIZE       random job's file: bytes with K/M/G/T suffix or N%\n"
		"                    of MemTotal (default 150%); rounded down to 4 KiB\n"
		"  --dir DIR         data directory (default /data); files " RANDOM_FILE "\n"
		"                    and " STREAM_FILE "\n"
		"  --mode MODE       randread (default) or randwrite (fio reads every\n"
		"                    block back, verify_backlog=1024)\n"
		"  --theta T         zipf's theta (default 1.2)\n"
		"  --ops N           random job's I/Os (default: one per block of its file)\n"
		"  --stream-size SIZE  the streamed file (default: --size; N% is of --size)\n"
		"  --stream-passes N   passes of the stream job (default 1; 0: no stream)\n"
		"  --fio PROGRAM     the fio to run (default /usr/bin/fio: the workload\n"
		"                    itself is fio in the guest's PATH)\n"
		"  --seed N          fio's randseed (default 1); run needs setup's seed\n",
	.objects = NULL,
	.notes = "RESULT: the random job's ops_per_s, p50/p99/p999_us, mean_us and max_us\n"
		 "(completion latency, fio's buckets), the stream's stream_kib_per_s.\n"
		 "No --emit-refs: fio, not this program, makes the references.\n",
	.flags = WL_SIZE | WL_FILES,
	.min_pages = 64,
	.options = options,
	.option = option,
	.prepare = prepare,
	.setup = setup,
	.open = open_data,
	.run = run,
	.report = report,
};

int main(int argc, char **argv)
{
	struct fio_wl f = { .mode = MODE_RANDREAD, .fio = "/usr/bin/fio", .theta = "1.2",
			    .stream_passes = 1 };
	int rc = wl_main(argc, argv, &spec, &f);

	free(f.random_path);
	free(f.stream_path);
	return rc;
}
