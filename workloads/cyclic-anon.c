/*
 * cyclic-anon: "cyclic access pattern with anonymous memory" (2006 series).
 * Loops over an anonymous region larger than RAM in the same page order on
 * every pass, LRU's worst case. Each visit checks the stamp the previous
 * pass left (zero on the first pass) and writes this pass's stamp, so a page
 * lost or corrupted by swap is caught (exit 3) rather than timed.
 */
#include "args.h"
#include "clock.h"
#include "err.h"
#include "meminfo.h"
#include "refs.h"
#include "result.h"
#include "stamp.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define NAME "cyclic-anon"

static void usage(void)
{
	printf("Usage: " NAME " [options]\n"
	       "Visit every page of an anonymous mapping in a fixed cyclic order\n"
	       "(page 0, 1, ..., N-1, repeat) for several passes, verifying and\n"
	       "rewriting a per-page stamp on every visit.\n\n"
	       "  --size SIZE       region size: bytes with K/M/G/T suffix or N%% of\n"
	       "                    MemTotal (default 150%%); rounded down to 4 KiB\n"
	       "  --passes N        passes over the region (default 3)\n"
	       "  --seed N          stamp seed (default 1)\n"
	       "  --phase PHASE     setup|run|all (default all); setup is a no-op\n"
	       "  --dir DIR         accepted for uniformity and ignored (no files)\n"
	       "  --emit-refs FILE  write the page reference string (object 0)\n"
	       "  --help            this text\n\n"
	       "Exit: 0 ok, 1 runtime error, 2 bad arguments, 3 verification failed.\n");
}

struct opts {
	uint64_t size;
	uint64_t passes;
	uint64_t seed;
	enum phase phase;
	const char *refs_path;
};

static void parse(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "passes", required_argument, NULL, 'p' },
		{ "seed", required_argument, NULL, 'S' },
		{ "phase", required_argument, NULL, 'P' },
		{ "dir", required_argument, NULL, 'd' },
		{ "emit-refs", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *size_arg = "150%";
	int c;

	o->passes = 3;
	o->seed = 1;
	o->phase = PHASE_ALL;
	o->refs_path = NULL;
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
			break;
		case 'r':
			o->refs_path = optarg;
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
}

int main(int argc, char **argv)
{
	struct opts o;
	struct result res;
	struct refs refs;
	uint64_t pages;
	unsigned char *mem;
	double start, elapsed;

	err_set_prog(NAME);
	parse(argc, argv, &o);
	pages = o.size / LAB_PAGE_SIZE;
	result_init(&res, NAME);
	result_str(&res, "phase", phase_name(o.phase));
	result_u64(&res, "size_bytes", o.size);
	result_u64(&res, "pages", pages);
	result_u64(&res, "passes", o.passes);
	result_u64(&res, "seed", o.seed);

	if (o.phase == PHASE_SETUP) {
		/* Nothing to prepare: the region exists only while running. */
		result_bool(&res, "verified", 1);
		result_num(&res, "elapsed_s", 0);
		return result_print(&res) ? EXIT_LAB_RUNTIME : 0;
	}

	refs_none(&refs);
	if (o.refs_path && refs_open(&refs, o.refs_path, LAB_PAGE_SIZE))
		die(EXIT_LAB_USAGE, "cannot create --emit-refs file %s: %s", o.refs_path,
		    strerror(errno));
	mem = mmap(NULL, o.size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mem == MAP_FAILED) {
		refs_abort(&refs);
		die(EXIT_LAB_RUNTIME, "cannot map %llu bytes: %s", (unsigned long long)o.size,
		    strerror(errno));
	}

	start = clock_now();
	for (uint64_t pass = 0; pass < o.passes; pass++) {
		for (uint64_t page = 0; page < pages; page++) {
			unsigned char *p = mem + page * LAB_PAGE_SIZE;
			long bad;

			refs_add(&refs, REFS_ID(0, page));
			if (pass == 0)
				bad = zero_mismatch(p);
			else
				bad = stamp_mismatch(p, stamp_key(o.seed, 0, page, pass - 1));
			if (bad >= 0) {
				char where[96];

				refs_abort(&refs);
				snprintf(where, sizeof(where), "page %llu pass %llu offset %ld",
					 (unsigned long long)page, (unsigned long long)pass, bad);
				result_bool(&res, "verified", 0);
				result_str(&res, "verify_error", where);
				result_num(&res, "elapsed_s", clock_now() - start);
				result_print(&res);
				die(EXIT_LAB_VERIFY,
				    "verification failed at page %llu pass %llu (byte offset %ld): "
				    "the page lost the stamp written by the previous pass",
				    (unsigned long long)page, (unsigned long long)pass, bad);
			}
			stamp_fill(p, stamp_key(o.seed, 0, page, pass));
		}
	}
	elapsed = clock_now() - start;

	if (refs_active(&refs)) {
		result_u64(&res, "refs", refs.count);
		if (refs_commit(&refs))
			die(EXIT_LAB_RUNTIME, "cannot write --emit-refs file %s: %s", o.refs_path,
			    strerror(errno));
	}
	result_bool(&res, "verified", 1);
	result_num(&res, "elapsed_s", elapsed);
	result_num(&res, "pages_per_s", elapsed > 0 ? (double)(pages * o.passes) / elapsed : 0);
	return result_print(&res) ? EXIT_LAB_RUNTIME : 0;
}
