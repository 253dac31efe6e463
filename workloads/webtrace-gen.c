/*
 * webtrace-gen: write a synthetic web-search block trace in the UMass SPC
 * format (ASU,LBA,Size,Opcode,Timestamp), deterministic for a seed. The
 * model lives in lib/webgen.h; webtrace replays the same requests when
 * given the same options.
 */
#include "args.h"
#include "clock.h"
#include "err.h"
#include "meminfo.h"
#include "refs.h"
#include "result.h"
#include "stamp.h"
#include "webgen.h"
#include "webgen_opts.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NAME "webtrace-gen"
#define OUT_BUFFER (1u << 20)

static void usage(void)
{
	printf("Usage: " NAME " --out FILE [options]\n"
	       "Write a synthetic web-search trace in UMass SPC format\n"
	       "(ASU,LBA,Size,Opcode,Timestamp; LBA in 512-byte sectors, size in\n"
	       "bytes, timestamp in seconds). Same options and seed, same bytes.\n\n"
	       "  --out FILE        trace file to write (required; written to a\n"
	       "                    temporary name, then renamed)\n"
	       "%s"
	       "  --seed N          generator seed (default 1)\n"
	       "  --emit-refs FILE  also write the trace's page reference string\n"
	       "                    (every 4 KiB page of every request, object = ASU)\n"
	       "  --help            this text\n\n"
	       "Exit: 0 ok, 1 runtime error, 2 bad arguments.\n",
	       WEBGEN_HELP);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		WEBGEN_LONGOPTS
		{ "out", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 'S' },
		{ "emit-refs", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct webgen_params params;
	const char *footprint_arg = NULL, *out_path = NULL, *refs_path = NULL, *why;
	struct webgen gen;
	struct refs refs;
	struct result res;
	char *tmp_path;
	FILE *out;
	uint64_t bytes = 0, pages = 0;
	double start;
	int c, err = 0;

	err_set_prog(NAME);
	webgen_defaults(&params, meminfo_total());
	while ((c = arg_next(argc, argv, longopts)) != -1) {
		if (webgen_option(c, optarg, &params, &footprint_arg))
			continue;
		switch (c) {
		case 'o':
			out_path = optarg;
			break;
		case 'S':
			params.seed = arg_u64("--seed", optarg);
			break;
		case 'r':
			refs_path = optarg;
			break;
		case 'h':
			usage();
			return 0;
		default:
			arg_getopt_failed(c, argv, optind);
		}
	}
	if (!out_path)
		die(EXIT_LAB_USAGE, "--out FILE is required (see --help)");
	webgen_finish_options(&params, footprint_arg);
	if (webgen_init(&gen, &params, &why))
		die(EXIT_LAB_USAGE, "%s", why);

	refs_none(&refs);
	if (refs_path)
		refs_emit_open(&refs, refs_path);
	tmp_path = malloc(strlen(out_path) + 32);
	if (!tmp_path)
		die(EXIT_LAB_RUNTIME, "out of memory");
	sprintf(tmp_path, "%s.tmp.%ld", out_path, (long)getpid());
	out = fopen(tmp_path, "w");
	if (!out) {
		refs_abort(&refs);
		die(EXIT_LAB_USAGE, "cannot create %s: %s", out_path, strerror(errno));
	}
	setvbuf(out, NULL, _IOFBF, OUT_BUFFER);

	start = clock_now();
	for (uint64_t i = 0; i < params.requests; i++) {
		struct spc_req r;
		uint64_t first, last;

		webgen_next(&gen, &r, NULL);
		/* Integer microseconds keep the text identical on every libc. */
		fprintf(out, "%u,%llu,%u,%c,%llu.%06llu\n", r.asu, (unsigned long long)r.lba,
			r.size, r.op, (unsigned long long)(gen.ts_us / 1000000),
			(unsigned long long)(gen.ts_us % 1000000));
		spc_pages(&r, &first, &last);
		for (uint64_t p = first; p <= last; p++)
			refs_add(&refs, REFS_ID(r.asu, p));
		bytes += r.size;
		pages += last - first + 1;
	}
	if (fflush(out) || ferror(out) || fsync(fileno(out)))
		err = errno ? errno : EIO;
	if (fclose(out) && !err)
		err = errno;
	if (!err && rename(tmp_path, out_path))
		err = errno;
	if (err) {
		unlink(tmp_path);
		refs_abort(&refs);
		die(EXIT_LAB_RUNTIME, "cannot write %s: %s", out_path, strerror(err));
	}
	free(tmp_path);

	result_init(&res, NAME);
	result_u64(&res, "footprint_bytes", gen.objects * WEBGEN_OBJECT_PAGES * LAB_PAGE_SIZE);
	result_u64(&res, "asus", params.asus);
	result_u64(&res, "asu_pages", webgen_asu_pages(&gen));
	result_u64(&res, "requests", params.requests);
	result_num(&res, "alpha", params.alpha);
	result_num(&res, "rate", params.rate);
	result_u64(&res, "bytes", bytes);
	result_u64(&res, "pages", pages);
	result_num(&res, "duration_s", (double)gen.ts_us / 1e6);
	result_u64(&res, "seed", params.seed);
	refs_emit_commit(&refs, refs_path, &res);
	result_num(&res, "elapsed_s", clock_now() - start);
	webgen_free(&gen);
	return result_print(&res) ? EXIT_LAB_RUNTIME : 0;
}
