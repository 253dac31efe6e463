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
#include "datafile.h"
#include "err.h"
#include "meminfo.h"
#include "refs.h"
#include "result.h"
#include "spc.h"
#include "stamp.h"
#include "webgen.h"
#include "webgen_opts.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NAME "webtrace"
#define ASU_SLOTS (SPC_MAX_ASU + 1)

static void usage(void)
{
	printf("Usage: " NAME " [options]\n"
	       "Replay an SPC trace (ASU,LBA,Size,Opcode,Timestamp) against one\n"
	       "stamped file per ASU, verifying every page read. Without --spc the\n"
	       "trace is generated in memory exactly as webtrace-gen would write it.\n\n"
	       "  --spc FILE        replay this trace instead of generating one; it is\n"
	       "                    parsed completely before anything is done and a\n"
	       "                    malformed line is reported as FILE:LINE (exit 2)\n"
	       "  --dir DIR         data directory (default /data); files\n"
	       "                    webtrace-asuN.dat, one per ASU in the trace\n"
	       "  --max-size SIZE   cap each ASU file; pages beyond wrap (page %% cap)\n"
	       "  --timed           honour the timestamps (default: as fast as possible)\n"
	       "  --seed N          generator and stamp seed (default 1); run needs\n"
	       "                    setup's seed and trace options\n"
	       "  --phase PHASE     setup: parse/generate, create and stamp the files;\n"
	       "                    run: the timed replay only; all (default): setup,\n"
	       "                    fsync, fadvise(DONTNEED), drop caches if allowed, run\n"
	       "  --no-drop-caches  with --phase all, do not write drop_caches (only\n"
	       "                    fsync and fadvise this workload's files)\n"
	       "  --emit-refs FILE  write the page reference string (object = ASU)\n"
	       "  --help            this text\n"
	       "Generator options (ignored with --spc):\n"
	       WEBGEN_HELP
	       "\nExit: 0 ok, 1 runtime error, 2 bad arguments or trace, 3 verification failed.\n");
}

struct opts {
	struct webgen_params gen;
	const char *spc_path;
	const char *dir;
	uint64_t max_pages; /* 0: no cap */
	int timed;
	enum phase phase;
	const char *refs_path;
	int keep_caches;
};

static void parse(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		WEBGEN_LONGOPTS,
		{ "spc", required_argument, NULL, 'f' },
		{ "dir", required_argument, NULL, 'd' },
		{ "max-size", required_argument, NULL, 'M' },
		{ "timed", no_argument, NULL, 't' },
		{ "seed", required_argument, NULL, 'S' },
		{ "phase", required_argument, NULL, 'P' },
		{ "emit-refs", required_argument, NULL, 'r' },
		{ "no-drop-caches", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *footprint_arg = NULL, *max_arg = NULL;
	int c;

	memset(o, 0, sizeof(*o));
	webgen_defaults(&o->gen, meminfo_total());
	o->dir = "/data";
	o->phase = PHASE_ALL;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (webgen_option(c, optarg, &o->gen, &footprint_arg))
			continue;
		switch (c) {
		case 'f':
			o->spc_path = optarg;
			break;
		case 'd':
			o->dir = optarg;
			break;
		case 'M':
			max_arg = optarg;
			break;
		case 't':
			o->timed = 1;
			break;
		case 'S':
			o->gen.seed = arg_u64("--seed", optarg);
			break;
		case 'P':
			o->phase = arg_phase(optarg);
			break;
		case 'r':
			o->refs_path = optarg;
			break;
		case 'n':
			o->keep_caches = 1;
			break;
		case 'h':
			usage();
			exit(0);
		default:
			arg_getopt_failed(c, argv, optind);
		}
	}
	arg_no_positionals(argc, argv, optind);
	if (max_arg) {
		o->max_pages = arg_size("--max-size", max_arg, meminfo_total()) / LAB_PAGE_SIZE;
		if (!o->max_pages)
			die(EXIT_LAB_USAGE, "bad --max-size value '%s': smaller than one 4 KiB page",
			    max_arg);
	}
	if (!o->spc_path)
		webgen_finish_options(&o->gen, footprint_arg);
	if (access(o->dir, W_OK | X_OK) && (o->phase != PHASE_RUN || access(o->dir, X_OK)))
		die(EXIT_LAB_USAGE, "bad --dir value '%s': %s", o->dir, strerror(errno));
}

struct replay {
	struct spc_trace trace;
	uint64_t extent[ASU_SLOTS]; /* pages per ASU file, 0: no file */
	int fd[ASU_SLOTS];
	uint64_t max_request_pages;
	int has_writes;
};

static uint64_t wrap(const struct opts *o, uint64_t page)
{
	return o->max_pages ? page % o->max_pages : page;
}

static void load_trace(const struct opts *o, struct replay *rp)
{
	char err[512];

	memset(&rp->trace, 0, sizeof(rp->trace));
	if (o->spc_path) {
		if (spc_load(o->spc_path, &rp->trace, err, sizeof(err)))
			die(EXIT_LAB_USAGE, "%s", err);
		if (!rp->trace.n)
			die(EXIT_LAB_USAGE, "%s: no requests in the trace", o->spc_path);
	} else {
		struct webgen gen;
		const char *why;

		if (webgen_init(&gen, &o->gen, &why))
			die(EXIT_LAB_USAGE, "%s", why);
		for (uint64_t i = 0; i < o->gen.requests; i++) {
			struct spc_req r;

			webgen_next(&gen, &r, NULL);
			if (spc_trace_push(&rp->trace, &r))
				die(EXIT_LAB_RUNTIME, "out of memory for the trace");
		}
		for (unsigned a = 0; a < o->gen.asus; a++)
			rp->extent[a] = webgen_asu_pages(&gen);
		webgen_free(&gen);
	}
	for (size_t i = 0; i < rp->trace.n; i++) {
		const struct spc_req *r = &rp->trace.reqs[i];
		uint64_t first, last;

		spc_pages(r, &first, &last);
		if (last + 1 > rp->extent[r->asu])
			rp->extent[r->asu] = last + 1;
		if (last - first + 1 > rp->max_request_pages)
			rp->max_request_pages = last - first + 1;
		if (r->op == 'w')
			rp->has_writes = 1;
	}
	if (o->max_pages)
		for (unsigned a = 0; a < ASU_SLOTS; a++)
			if (rp->extent[a] > o->max_pages)
				rp->extent[a] = o->max_pages;
}

static char *asu_path(const struct opts *o, unsigned asu)
{
	char name[64];

	snprintf(name, sizeof(name), "webtrace-asu%u.dat", asu);
	return datafile_path(o->dir, name);
}

static void setup(const struct opts *o, struct replay *rp)
{
	for (unsigned a = 0; a < ASU_SLOTS; a++) {
		char *path;
		int err;

		if (!rp->extent[a])
			continue;
		path = asu_path(o, a);
		err = datafile_create(path, rp->extent[a], o->gen.seed, a);
		if (err)
			die(EXIT_LAB_RUNTIME, "cannot create %s: %s", path, strerror(err));
		free(path);
	}
}

static void open_files(const struct opts *o, struct replay *rp)
{
	for (unsigned a = 0; a < ASU_SLOTS; a++) {
		char *path;

		rp->fd[a] = -1;
		if (!rp->extent[a])
			continue;
		path = asu_path(o, a);
		rp->fd[a] = datafile_open(path, rp->extent[a], o->gen.seed, a, rp->has_writes ? O_RDWR : O_RDONLY);
		free(path);
	}
}

static void uncache_files(struct replay *rp, int drop)
{
	for (unsigned a = 0; a < ASU_SLOTS; a++) {
		int err;

		if (rp->fd[a] < 0)
			continue;
		err = datafile_uncache(rp->fd[a], 0);
		if (err)
			die(EXIT_LAB_RUNTIME, "cannot drop ASU %u's file from the page cache: %s", a,
			    strerror(err));
	}
	if (drop) {
		int err = drop_caches();

		if (err)
			die(EXIT_LAB_RUNTIME, "cannot drop caches: %s", strerror(err));
	}
}

struct totals {
	uint64_t reads, writes, bytes, pages;
	double max_lag_s;
};

static void io_failed(struct refs *refs, size_t req, const char *what, ssize_t n)
{
	refs_abort(refs);
	die(EXIT_LAB_RUNTIME, "request %zu: %s failed: %s", req + 1, what,
	    n < 0 ? strerror(errno) : "short transfer");
}

/* Read or write pages [page, page+n) of one ASU file; verify reads. */
static void transfer(const struct opts *o, struct replay *rp, size_t req, unsigned asu,
		     uint64_t page, uint64_t n, char op, unsigned char *buf, struct refs *refs,
		     struct result *res, double start)
{
	size_t len = (size_t)n * LAB_PAGE_SIZE;
	off_t off = (off_t)(page * LAB_PAGE_SIZE);
	ssize_t got;

	if (op == 'w') {
		for (uint64_t i = 0; i < n; i++)
			stamp_fill(buf + i * LAB_PAGE_SIZE, stamp_key(o->gen.seed, asu, page + i, 0));
		got = pwrite(rp->fd[asu], buf, len, off);
		if (got != (ssize_t)len)
			io_failed(refs, req, "write", got);
		return;
	}
	got = pread(rp->fd[asu], buf, len, off);
	if (got != (ssize_t)len)
		io_failed(refs, req, "read", got);
	for (uint64_t i = 0; i < n; i++) {
		long bad = stamp_mismatch(buf + i * LAB_PAGE_SIZE,
					  stamp_key(o->gen.seed, asu, page + i, 0));
		char where[128];

		if (bad < 0)
			continue;
		refs_abort(refs);
		snprintf(where, sizeof(where), "request %zu asu %u page %llu offset %ld", req + 1,
			 asu, (unsigned long long)(page + i), bad);
		result_bool(res, "verified", 0);
		result_str(res, "verify_error", where);
		result_num(res, "elapsed_s", clock_now() - start);
		result_print(res);
		die(EXIT_LAB_VERIFY,
		    "verification failed at request %zu, ASU %u page %llu (byte offset %ld)",
		    req + 1, asu, (unsigned long long)(page + i), bad);
	}
}

static double replay(const struct opts *o, struct replay *rp, struct refs *refs,
		     struct result *res, struct totals *t)
{
	unsigned char *buf;
	double start, t0 = rp->trace.reqs[0].ts;

	if (posix_memalign((void **)&buf, LAB_PAGE_SIZE,
			   (size_t)rp->max_request_pages * LAB_PAGE_SIZE))
		die(EXIT_LAB_RUNTIME, "out of memory for the I/O buffer");
	memset(t, 0, sizeof(*t));
	start = clock_now();
	for (size_t i = 0; i < rp->trace.n; i++) {
		const struct spc_req *r = &rp->trace.reqs[i];
		uint64_t first, last, run_start, run_len = 0;

		if (o->timed) {
			double due = start + (r->ts - t0), now = clock_now();

			if (now > due && now - due > t->max_lag_s)
				t->max_lag_s = now - due;
			clock_sleep_until(due);
		}
		spc_pages(r, &first, &last);
		/* Contiguous runs of (possibly wrapped) pages, one syscall each. */
		run_start = wrap(o, first);
		for (uint64_t p = first; p <= last; p++) {
			uint64_t w = wrap(o, p);

			refs_add(refs, REFS_ID(r->asu, w));
			if (run_len && w != run_start + run_len) {
				transfer(o, rp, i, r->asu, run_start, run_len, r->op, buf, refs, res,
					 start);
				run_start = w;
				run_len = 0;
			}
			run_len++;
		}
		transfer(o, rp, i, r->asu, run_start, run_len, r->op, buf, refs, res, start);
		if (r->op == 'w')
			t->writes++;
		else
			t->reads++;
		t->bytes += r->size;
		t->pages += last - first + 1;
	}
	start = clock_now() - start;
	free(buf);
	return start;
}

int main(int argc, char **argv)
{
	static struct replay rp;
	struct opts o;
	struct result res;
	struct refs refs;
	struct totals t = { 0 };
	uint64_t footprint = 0, files = 0;
	double elapsed = 0;

	err_set_prog(NAME);
	parse(argc, argv, &o);
	load_trace(&o, &rp);
	for (unsigned a = 0; a < ASU_SLOTS; a++) {
		footprint += rp.extent[a];
		files += rp.extent[a] != 0;
	}
	result_init(&res, NAME);
	result_str(&res, "phase", phase_name(o.phase));
	result_str(&res, "trace", o.spc_path ? o.spc_path : "generated");
	if (!o.spc_path) {
		result_num(&res, "alpha", o.gen.alpha);
		result_num(&res, "rate", o.gen.rate);
	}
	result_u64(&res, "asus", files);
	result_u64(&res, "size_bytes", footprint * LAB_PAGE_SIZE);
	result_u64(&res, "seed", o.gen.seed);
	result_bool(&res, "timed", o.timed);

	/* Before setup, so a bad --emit-refs path costs nothing. */
	refs_none(&refs);
	if ((o.phase & PHASE_RUN) && o.refs_path &&
	    refs_open(&refs, o.refs_path, LAB_PAGE_SIZE))
		die(EXIT_LAB_USAGE, "cannot create --emit-refs file %s: %s", o.refs_path,
		    strerror(errno));
	if (o.phase & PHASE_SETUP) {
		double s = clock_now();

		setup(&o, &rp);
		result_num(&res, "setup_s", clock_now() - s);
	}
	if (o.phase & PHASE_RUN) {
		open_files(&o, &rp);
		if (o.phase == PHASE_ALL)
			uncache_files(&rp, !o.keep_caches);
		elapsed = replay(&o, &rp, &refs, &res, &t);
		for (unsigned a = 0; a < ASU_SLOTS; a++)
			if (rp.fd[a] >= 0)
				close(rp.fd[a]);
		result_u64(&res, "requests", t.reads + t.writes);
		result_u64(&res, "reads", t.reads);
		result_u64(&res, "writes", t.writes);
		result_u64(&res, "bytes", t.bytes);
		result_u64(&res, "pages", t.pages);
		result_num(&res, "requests_per_s",
			   elapsed > 0 ? (double)(t.reads + t.writes) / elapsed : 0);
		if (o.timed)
			result_num(&res, "max_lag_s", t.max_lag_s);
		if (refs_active(&refs)) {
			result_u64(&res, "refs", refs.count);
			if (refs_commit(&refs))
				die(EXIT_LAB_RUNTIME, "cannot write --emit-refs file %s: %s",
				    o.refs_path, strerror(errno));
		}
	}
	result_bool(&res, "verified", 1);
	result_num(&res, "elapsed_s", elapsed);
	spc_trace_free(&rp.trace);
	return result_print(&res) ? EXIT_LAB_RUNTIME : 0;
}
