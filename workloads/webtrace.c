/*
 * webtrace: replay a UMass SPC block trace (by default the synthetic
 * web-search trace of lib/webgen.h, or a real one with --spc) against one
 * stamped file per ASU with pread/pwrite, verifying every page read.
 *
 * A request touches the 4 KiB pages floor(LBA*512/4096) ..
 * floor((LBA*512+Size-1)/4096) of its ASU's file and is replayed as whole
 * pages. Each ASU's file is sized to the highest page the trace touches
 * (generated traces: at least the generator's ASU size). With --max-size,
 * files are capped and pages beyond the cap wrap around (page % cap).
 * Writes store the same stamp the page was created with, so reads after
 * them still verify.
 */
#include "args.h"
#include "clock.h"
#include "driver.h"
#include "err.h"
#include "meminfo.h"
#include "resident.h"
#include "spc.h"
#include "stamp.h"
#include "webgen.h"
#include "webgen_opts.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ASU_SLOTS (SPC_MAX_ASU + 1)

struct webtrace {
	struct webgen_params gen;
	const char *footprint_arg, *max_arg;
	const char *spc_path;
	uint64_t max_pages; /* 0: no cap */
	int timed;
	struct spc_trace trace;
	uint64_t extent[ASU_SLOTS]; /* pages per ASU file, 0: no file */
	int fd[ASU_SLOTS];
	/* the open files, for the resident samples */
	int data_fd[ASU_SLOTS];
	uint64_t data_bytes[ASU_SLOTS];
	size_t nr_data;
	uint64_t max_request_pages;
	int has_writes;
	uint64_t reads, writes, bytes, pages;
	double max_lag_s;
};

/* The generator's options are webgen_option's to parse. */
#define WEBGEN_OWN(name, val) wl_opt_own(name, val),

static const struct wl_option options[] = {
	WEBGEN_OPTIONS(WEBGEN_OWN)
	wl_opt_string("spc", struct webtrace, spc_path),
	wl_opt_string("max-size", struct webtrace, max_arg),
	wl_opt_flag("timed", struct webtrace, timed),
	{ 0 },
};

/* One of the generator's options (WEBGEN_OPTIONS). */
static int option(struct wl *w, int c, const char *arg)
{
	struct webtrace *wt = w->priv;

	return webgen_option(c, arg, &wt->gen, &wt->footprint_arg);
}

static uint64_t wrap(const struct webtrace *wt, uint64_t page)
{
	return wt->max_pages ? page % wt->max_pages : page;
}

static void load_trace(struct webtrace *wt)
{
	char err[512];

	if (wt->spc_path) {
		if (spc_load(wt->spc_path, &wt->trace, err, sizeof(err)))
			die(EXIT_LAB_USAGE, "%s", err);
		if (!wt->trace.n)
			die(EXIT_LAB_USAGE, "%s: no requests in the trace", wt->spc_path);
	} else {
		struct webgen gen;
		const char *why;

		if (webgen_init(&gen, &wt->gen, &why))
			die(EXIT_LAB_USAGE, "%s", why);
		for (uint64_t i = 0; i < wt->gen.requests; i++) {
			struct spc_req r;

			webgen_next(&gen, &r, NULL);
			if (spc_trace_push(&wt->trace, &r))
				die(EXIT_LAB_RUNTIME, "out of memory for the trace");
		}
		for (unsigned a = 0; a < wt->gen.asus; a++)
			wt->extent[a] = webgen_asu_pages(&gen);
		webgen_free(&gen);
	}
	for (size_t i = 0; i < wt->trace.n; i++) {
		const struct spc_req *r = &wt->trace.reqs[i];
		uint64_t first, last;

		spc_pages(r, &first, &last);
		if (last + 1 > wt->extent[r->asu])
			wt->extent[r->asu] = last + 1;
		if (last - first + 1 > wt->max_request_pages)
			wt->max_request_pages = last - first + 1;
		if (r->op == 'w')
			wt->has_writes = 1;
	}
	if (wt->max_pages)
		for (unsigned a = 0; a < ASU_SLOTS; a++)
			if (wt->extent[a] > wt->max_pages)
				wt->extent[a] = wt->max_pages;
}

static void prepare(struct wl *w)
{
	struct webtrace *wt = w->priv;
	uint64_t footprint = 0, files = 0;

	wt->gen.seed = w->seed;
	if (wt->max_arg) {
		wt->max_pages = arg_size("--max-size", wt->max_arg, meminfo_total()) / LAB_PAGE_SIZE;
		if (!wt->max_pages)
			die(EXIT_LAB_USAGE, "bad --max-size value '%s': smaller than one 4 KiB page",
			    wt->max_arg);
	}
	if (!wt->spc_path)
		webgen_finish_options(&wt->gen, wt->footprint_arg);
	load_trace(wt);
	for (unsigned a = 0; a < ASU_SLOTS; a++) {
		footprint += wt->extent[a];
		files += wt->extent[a] != 0;
	}
	result_str(&w->res, "trace", wt->spc_path ? wt->spc_path : "generated");
	if (!wt->spc_path) {
		result_num(&w->res, "alpha", wt->gen.alpha);
		result_num(&w->res, "rate", wt->gen.rate);
	}
	result_u64(&w->res, "asus", files);
	result_u64(&w->res, "size_bytes", footprint * LAB_PAGE_SIZE);
	result_u64(&w->res, "seed", w->seed);
	result_bool(&w->res, "timed", wt->timed);
}

static char *asu_path(const struct wl *w, unsigned asu)
{
	char name[64];

	snprintf(name, sizeof(name), "webtrace-asu%u.dat", asu);
	return wl_path(w, name);
}

static void setup(struct wl *w)
{
	struct webtrace *wt = w->priv;

	for (unsigned a = 0; a < ASU_SLOTS; a++) {
		char *path;

		if (!wt->extent[a])
			continue;
		path = asu_path(w, a);
		wl_create_data(w, path, wt->extent[a], a);
		free(path);
	}
}

static void open_data(struct wl *w)
{
	struct webtrace *wt = w->priv;

	for (unsigned a = 0; a < ASU_SLOTS; a++) {
		char *path;

		wt->fd[a] = -1;
		if (!wt->extent[a])
			continue;
		path = asu_path(w, a);
		wt->fd[a] = wl_open_data(w, path, wt->extent[a], a,
					 wt->has_writes ? O_RDWR : O_RDONLY);
		wt->data_fd[wt->nr_data] = wt->fd[a];
		wt->data_bytes[wt->nr_data++] = wt->extent[a] * LAB_PAGE_SIZE;
		free(path);
	}
}

static _Noreturn void io_failed(size_t req, const char *what, ssize_t n)
{
	die(EXIT_LAB_RUNTIME, "request %zu: %s failed: %s", req + 1, what,
	    n < 0 ? strerror(errno) : "short transfer");
}

/* Read or write pages [page, page+n) of one ASU file; verify reads. */
static void transfer(struct wl *w, size_t req, unsigned asu, uint64_t page, uint64_t n, char op,
		     unsigned char *buf)
{
	struct webtrace *wt = w->priv;
	size_t len = (size_t)n * LAB_PAGE_SIZE;
	off_t off = (off_t)(page * LAB_PAGE_SIZE);
	ssize_t got;

	if (op == 'w') {
		for (uint64_t i = 0; i < n; i++)
			stamp_fill(buf + i * LAB_PAGE_SIZE, stamp_key(w->seed, asu, page + i, 0));
		got = pwrite(wt->fd[asu], buf, len, off);
		if (got != (ssize_t)len)
			io_failed(req, "write", got);
		return;
	}
	got = pread(wt->fd[asu], buf, len, off);
	if (got != (ssize_t)len)
		io_failed(req, "read", got);
	for (uint64_t i = 0; i < n; i++) {
		long bad = stamp_mismatch(buf + i * LAB_PAGE_SIZE,
					  stamp_key(w->seed, asu, page + i, 0));
		char where[128];

		if (bad < 0)
			continue;
		snprintf(where, sizeof(where), "request %zu asu %u page %llu offset %ld", req + 1,
			 asu, (unsigned long long)(page + i), bad);
		wl_verify_failed(w, where,
				 "verification failed at request %zu, ASU %u page %llu (byte offset %ld)",
				 req + 1, asu, (unsigned long long)(page + i), bad);
	}
}

static double run(struct wl *w)
{
	struct webtrace *wt = w->priv;
	unsigned char *buf;
	double elapsed, t0 = wt->trace.reqs[0].ts;

	if (posix_memalign((void **)&buf, LAB_PAGE_SIZE,
			   (size_t)wt->max_request_pages * LAB_PAGE_SIZE))
		die(EXIT_LAB_RUNTIME, "out of memory for the I/O buffer");
	resident_sampler_init(&w->resident, resident_half(wt->trace.n), w->resident_samples);
	wl_timer_start(w);
	for (size_t i = 0; i < wt->trace.n; i++) {
		const struct spc_req *r = &wt->trace.reqs[i];
		uint64_t first, last, run_start, run_len = 0;

		/* a timed replay keeps the trace's pace: no samples */
		if (!wt->timed && resident_sample_due_in_run(&w->resident, i, wt->trace.n))
			resident_sample_files(&w->resident, wt->nr_data, wt->data_fd,
					      wt->data_bytes, "an ASU file");

		if (wt->timed) {
			double due = w->start + (r->ts - t0), now = clock_now();

			if (now > due && now - due > wt->max_lag_s)
				wt->max_lag_s = now - due;
			clock_sleep_until(due);
		}
		spc_pages(r, &first, &last);
		/* Contiguous runs of (possibly wrapped) pages, one syscall each. */
		run_start = wrap(wt, first);
		for (uint64_t p = first; p <= last; p++) {
			uint64_t pw = wrap(wt, p);

			wl_ref(w, r->asu, pw);
			if (run_len && pw != run_start + run_len) {
				transfer(w, i, r->asu, run_start, run_len, r->op, buf);
				run_start = pw;
				run_len = 0;
			}
			run_len++;
		}
		transfer(w, i, r->asu, run_start, run_len, r->op, buf);
		if (r->op == 'w')
			wt->writes++;
		else
			wt->reads++;
		wt->bytes += r->size;
		wt->pages += last - first + 1;
	}
	elapsed = wl_timer_elapsed(w) - w->resident.seconds;
	free(buf);
	return elapsed;
}

static void report(struct wl *w, double elapsed)
{
	struct webtrace *wt = w->priv;

	result_u64(&w->res, "requests", wt->reads + wt->writes);
	result_u64(&w->res, "reads", wt->reads);
	result_u64(&w->res, "writes", wt->writes);
	result_u64(&w->res, "bytes", wt->bytes);
	result_u64(&w->res, "pages", wt->pages);
	result_rate(&w->res, "requests_per_s", wt->reads + wt->writes, elapsed);
	if (wt->timed)
		result_num(&w->res, "max_lag_s", wt->max_lag_s);
}

static const struct wl_spec spec = {
	.name = "webtrace",
	.about = "Replay an SPC trace (ASU,LBA,Size,Opcode,Timestamp) against one\n"
		 "stamped file per ASU, verifying every page read. Without --spc the\n"
		 "trace is generated in memory exactly as webtrace-gen would write it.\n",
	.help = "  --spc FILE        replay this trace instead of generating one; it is\n"
		"                    parsed completely before anything is done and a\n"
		"                    malformed line is reported as FILE:LINE (exit 2)\n"
		"  --dir DIR         data directory (default /data); files\n"
		"                    webtrace-asuN.dat, one per ASU in the trace\n"
		"  --max-size SIZE   cap each ASU file; pages beyond wrap (page % cap)\n"
		"  --timed           honour the timestamps (default: as fast as possible)\n"
		"  --seed N          generator and stamp seed (default 1); run needs\n"
		"                    setup's seed and trace options\n"
		"Generator options (ignored with --spc):\n" WEBGEN_HELP,
	.objects = "object = ASU",
	.flags = WL_FILES | WL_RESIDENT,
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
	static struct webtrace wt;
	int rc;

	webgen_defaults(&wt.gen, meminfo_total());
	rc = wl_main(argc, argv, &spec, &wt);
	spc_trace_free(&wt.trace);
	return rc;
}
