/*
 * cyclic-file: "cyclic access pattern with file backed memory" (2006
 * series). Reads a stamped file larger than RAM in the same page order on
 * every pass, with pread or through a shared read-only mapping, and checks
 * every page's stamp on every read.
 */
#include "args.h"
#include "clock.h"
#include "datafile.h"
#include "err.h"
#include "meminfo.h"
#include "refs.h"
#include "result.h"
#include "stamp.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define NAME "cyclic-file"
#define FILE_NAME "cyclic-file.dat"

enum mode { MODE_READ, MODE_MMAP };

static void usage(void)
{
	printf("Usage: " NAME " [options]\n"
	       "Read every page of a stamped file in a fixed cyclic order (page 0,\n"
	       "1, ..., N-1, repeat) for several passes, verifying every page.\n\n"
	       "  --size SIZE       file size: bytes with K/M/G/T suffix or N%% of\n"
	       "                    MemTotal (default 150%%); rounded down to 4 KiB\n"
	       "  --dir DIR         data directory (default /data); file " FILE_NAME "\n"
	       "  --mode MODE       read (pread, default) or mmap (shared read-only map)\n"
	       "  --passes N        passes over the file (default 3)\n"
	       "  --seed N          stamp seed (default 1); run needs setup's seed\n"
	       "  --phase PHASE     setup: create, stamp and fsync the file;\n"
	       "                    run: the timed reads only;\n"
	       "                    all (default): setup, fsync, fadvise(DONTNEED),\n"
	       "                    drop caches if allowed, then run\n"
	       "  --no-drop-caches  with --phase all, do not write drop_caches (only\n"
	       "                    fsync and fadvise this workload's files)\n"
	       "  --emit-refs FILE  write the page reference string (object 0)\n"
	       "  --help            this text\n\n"
	       "Exit: 0 ok, 1 runtime error, 2 bad arguments, 3 verification failed.\n");
}

struct opts {
	uint64_t size;
	uint64_t passes;
	uint64_t seed;
	const char *dir;
	enum mode mode;
	enum phase phase;
	const char *refs_path;
	int keep_caches;
};

static void parse(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "passes", required_argument, NULL, 'p' },
		{ "seed", required_argument, NULL, 'S' },
		{ "phase", required_argument, NULL, 'P' },
		{ "dir", required_argument, NULL, 'd' },
		{ "mode", required_argument, NULL, 'm' },
		{ "emit-refs", required_argument, NULL, 'r' },
		{ "no-drop-caches", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *size_arg = "150%";
	int c;

	o->passes = 3;
	o->seed = 1;
	o->dir = "/data";
	o->mode = MODE_READ;
	o->phase = PHASE_ALL;
	o->refs_path = NULL;
	o->keep_caches = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			size_arg = optarg;
			break;
		case 'p':
			o->passes = arg_positive("--passes", optarg);
			break;
		case 'S':
			o->seed = arg_u64("--seed", optarg);
			break;
		case 'P':
			o->phase = arg_phase(optarg);
			break;
		case 'd':
			o->dir = optarg;
			break;
		case 'm':
			if (!strcmp(optarg, "read"))
				o->mode = MODE_READ;
			else if (!strcmp(optarg, "mmap"))
				o->mode = MODE_MMAP;
			else
				die(EXIT_LAB_USAGE, "bad --mode value '%s': expected read or mmap",
				    optarg);
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
	o->size = arg_size("--size", size_arg, meminfo_total()) / LAB_PAGE_SIZE * LAB_PAGE_SIZE;
	if (!o->size)
		die(EXIT_LAB_USAGE, "bad --size value '%s': smaller than one 4 KiB page", size_arg);
	if (access(o->dir, W_OK | X_OK) && (o->phase != PHASE_RUN || access(o->dir, X_OK)))
		die(EXIT_LAB_USAGE, "bad --dir value '%s': %s", o->dir, strerror(errno));
}

static _Noreturn void verify_failed(struct result *res, struct refs *refs, double start,
				    uint64_t page, uint64_t pass, long offset)
{
	char where[96];

	refs_abort(refs);
	snprintf(where, sizeof(where), "page %llu pass %llu offset %ld",
		 (unsigned long long)page, (unsigned long long)pass, offset);
	result_bool(res, "verified", 0);
	result_str(res, "verify_error", where);
	result_num(res, "elapsed_s", clock_now() - start);
	result_print(res);
	die(EXIT_LAB_VERIFY, "verification failed at page %llu pass %llu (byte offset %ld): "
	    "file contents differ from the stamp written at setup",
	    (unsigned long long)page, (unsigned long long)pass, offset);
}

static double run(const struct opts *o, int fd, struct result *res, struct refs *refs)
{
	uint64_t pages = o->size / LAB_PAGE_SIZE;
	unsigned char *map = NULL, *buf = NULL;
	double start;

	if (o->mode == MODE_MMAP) {
		map = mmap(NULL, o->size, PROT_READ, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED)
			die(EXIT_LAB_RUNTIME, "cannot map the data file: %s", strerror(errno));
	} else if (posix_memalign((void **)&buf, LAB_PAGE_SIZE, LAB_PAGE_SIZE)) {
		die(EXIT_LAB_RUNTIME, "out of memory");
	}

	start = clock_now();
	for (uint64_t pass = 0; pass < o->passes; pass++) {
		for (uint64_t page = 0; page < pages; page++) {
			const unsigned char *p;
			long bad;

			refs_add(refs, REFS_ID(0, page));
			if (map) {
				p = map + page * LAB_PAGE_SIZE;
			} else {
				ssize_t n = pread(fd, buf, LAB_PAGE_SIZE,
						  (off_t)(page * LAB_PAGE_SIZE));

				if (n != (ssize_t)LAB_PAGE_SIZE) {
					refs_abort(refs);
					die(EXIT_LAB_RUNTIME, "read of page %llu failed: %s",
					    (unsigned long long)page,
					    n < 0 ? strerror(errno) : "short read");
				}
				p = buf;
			}
			bad = stamp_mismatch(p, stamp_key(o->seed, 0, page, 0));
			if (bad >= 0)
				verify_failed(res, refs, start, page, pass, bad);
		}
	}
	start = clock_now() - start;
	if (map)
		munmap(map, o->size);
	free(buf);
	return start;
}

int main(int argc, char **argv)
{
	struct opts o;
	struct result res;
	struct refs refs;
	char *path;
	double elapsed = 0;
	int fd, err;

	err_set_prog(NAME);
	parse(argc, argv, &o);
	path = datafile_path(o.dir, FILE_NAME);
	result_init(&res, NAME);
	result_str(&res, "phase", phase_name(o.phase));
	result_str(&res, "mode", o.mode == MODE_MMAP ? "mmap" : "read");
	result_u64(&res, "size_bytes", o.size);
	result_u64(&res, "pages", o.size / LAB_PAGE_SIZE);
	result_u64(&res, "passes", o.passes);
	result_u64(&res, "seed", o.seed);

	/* Before setup, so a bad --emit-refs path costs nothing. */
	refs_none(&refs);
	if ((o.phase & PHASE_RUN) && o.refs_path &&
	    refs_open(&refs, o.refs_path, LAB_PAGE_SIZE))
		die(EXIT_LAB_USAGE, "cannot create --emit-refs file %s: %s", o.refs_path,
		    strerror(errno));
	if (o.phase & PHASE_SETUP) {
		double t = clock_now();

		err = datafile_create(path, o.size / LAB_PAGE_SIZE, o.seed, 0);
		if (err)
			die(EXIT_LAB_RUNTIME, "cannot create %s: %s", path, strerror(err));
		result_num(&res, "setup_s", clock_now() - t);
	}
	if (o.phase & PHASE_RUN) {
		fd = datafile_open(path, o.size / LAB_PAGE_SIZE, o.seed, 0, O_RDONLY);
		if (o.phase == PHASE_ALL && (err = datafile_uncache(fd, !o.keep_caches)))
			die(EXIT_LAB_RUNTIME, "cannot drop %s from the page cache: %s", path,
			    strerror(err));
		elapsed = run(&o, fd, &res, &refs);
		close(fd);
		if (refs_active(&refs)) {
			result_u64(&res, "refs", refs.count);
			if (refs_commit(&refs))
				die(EXIT_LAB_RUNTIME, "cannot write --emit-refs file %s: %s",
				    o.refs_path, strerror(errno));
		}
		result_num(&res, "pages_per_s",
			   elapsed > 0 ? (double)(o.size / LAB_PAGE_SIZE * o.passes) / elapsed : 0);
	}
	result_bool(&res, "verified", 1);
	result_num(&res, "elapsed_s", elapsed);
	free(path);
	return result_print(&res) ? EXIT_LAB_RUNTIME : 0;
}
