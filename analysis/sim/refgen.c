/* refgen: write a synthetic page reference string (LABREFS1 or LIRS text)
 * for tests and benchmarks of pagesim.
 *   uniform  every page equally likely
 *   zipf     page of rank k has weight 1/k^alpha; ranks are scattered over
 *            the page ids by a seeded permutation
 *   cyclic   0, 1, ..., pages-1, 0, 1, ... (a loop)
 * Output goes to a temporary file renamed into place, so a failed run
 * leaves nothing half-written. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prng.h"
#include "sizes.h"

#define EXIT_RUNTIME 1
#define EXIT_BAD_ARGS 2
#define REFGEN_PAGE_SIZE 4096

/* In the order of their names in dist_names[]. */
enum dist { DIST_UNIFORM, DIST_ZIPF, DIST_CYCLIC };

static const char *const dist_names[] = { "uniform", "zipf", "cyclic", NULL };
/* --format: text is the index of the format here. */
static const char *const format_names[] = { "labrefs", "text", NULL };

struct refgen {
	enum dist dist;
	unsigned long long refs;
	unsigned long long pages;
	double alpha;
	unsigned long long seed;
	unsigned text;
	const char *out;
};

static char tmp_path[4096];

static void die(int code, const char *fmt, const char *arg)
{
	fputs("refgen: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	if (tmp_path[0])
		unlink(tmp_path);
	exit(code);
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: refgen --dist uniform|zipf|cyclic --refs N --pages N [options] -o FILE\n"
		"  --alpha A        Zipf exponent (default 1.0)\n"
		"  --seed N         seed (default 1)\n"
		"  --format labrefs|text   LABREFS1 binary (default) or LIRS text\n"
		"  -o, --out FILE   output file\n");
}

static void parse_args(int argc, char **argv, struct refgen *g)
{
	static const struct option longopts[] = {
		{ "dist", required_argument, NULL, 'd' },
		{ "refs", required_argument, NULL, 'r' },
		{ "pages", required_argument, NULL, 'p' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "seed", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int have_dist = 0, c;
	unsigned dist;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			have_dist = 1;
			if (parse_choice(optarg, dist_names, &dist) < 0)
				die(EXIT_BAD_ARGS, "unknown distribution '%s'", optarg);
			g->dist = (enum dist)dist;
			break;
		case 'r':
			if (parse_u64(optarg, &g->refs) < 0 || g->refs == 0)
				die(EXIT_BAD_ARGS, "bad --refs '%s'", optarg);
			break;
		case 'p':
			if (parse_u64(optarg, &g->pages) < 0 || g->pages == 0 || g->pages > UINT32_MAX)
				die(EXIT_BAD_ARGS, "bad --pages '%s'", optarg);
			break;
		case 'a':
			if (parse_double(optarg, 0.0, 10.0, &g->alpha) < 0 || !(g->alpha > 0.0))
				die(EXIT_BAD_ARGS, "bad --alpha '%s' (want 0 < A <= 10)", optarg);
			break;
		case 's':
			if (parse_u64(optarg, &g->seed) < 0)
				die(EXIT_BAD_ARGS, "bad --seed '%s'", optarg);
			break;
		case 'f':
			if (parse_choice(optarg, format_names, &g->text) < 0)
				die(EXIT_BAD_ARGS, "unknown format '%s' (labrefs or text)", optarg);
			break;
		case 'o':
			g->out = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			die(EXIT_BAD_ARGS, "bad option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (optind != argc)
		die(EXIT_BAD_ARGS, "unexpected argument '%s'", argv[optind]);
	if (!have_dist || !g->refs || !g->pages || !g->out)
		die(EXIT_BAD_ARGS, "%s", "--dist, --refs, --pages and -o are required");
}

/* Cumulative Zipf weights, normalised so cdf[pages-1] == 1. */
static double *zipf_cdf(unsigned long long pages, double alpha)
{
	double *cdf = malloc(pages * sizeof(*cdf));
	double sum = 0;

	if (!cdf)
		return NULL;
	for (unsigned long long k = 0; k < pages; k++) {
		sum += pow((double)(k + 1), -alpha);
		cdf[k] = sum;
	}
	for (unsigned long long k = 0; k < pages; k++)
		cdf[k] /= sum;
	cdf[pages - 1] = 1.0;
	return cdf;
}

static uint32_t zipf_rank(const double *cdf, unsigned long long pages, double u)
{
	unsigned long long lo = 0, hi = pages - 1;

	while (lo < hi) {
		unsigned long long mid = lo + (hi - lo) / 2;

		if (cdf[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return (uint32_t)lo;
}

static void put_le(unsigned char *b, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		b[i] = (unsigned char)(v >> (8 * i));
}

int main(int argc, char **argv)
{
	struct refgen g = { .alpha = 1.0, .seed = 1 };
	uint32_t *perm = NULL;
	double *cdf = NULL;
	struct prng rng;
	FILE *f;

	parse_args(argc, argv, &g);
	prng_seed(&rng, g.seed);
	if (g.dist == DIST_ZIPF) {
		cdf = zipf_cdf(g.pages, g.alpha);
		perm = malloc(g.pages * sizeof(*perm));
		if (!cdf || !perm)
			die(EXIT_RUNTIME, "%s", "out of memory");
		for (unsigned long long i = 0; i < g.pages; i++)
			perm[i] = (uint32_t)i;
		for (unsigned long long i = g.pages - 1; i > 0; i--) {
			unsigned long long j = prng_below(&rng, i + 1);
			uint32_t t = perm[i];

			perm[i] = perm[j];
			perm[j] = t;
		}
	}
	if ((size_t)snprintf(tmp_path, sizeof(tmp_path), "%s.tmp.%ld", g.out, (long)getpid()) >= sizeof(tmp_path))
		die(EXIT_BAD_ARGS, "output path too long: '%s'", g.out);
	f = fopen(tmp_path, "wb");
	if (!f) {
		tmp_path[0] = '\0';
		die(EXIT_RUNTIME, "cannot create output: %s", strerror(errno));
	}
	if (!g.text) {
		unsigned char header[16];

		memcpy(header, "LABREFS1", 8);
		put_le(header + 8, REFGEN_PAGE_SIZE, 4);
		put_le(header + 12, 0, 4);
		fwrite(header, 1, sizeof(header), f);
	}
	for (unsigned long long i = 0; i < g.refs; i++) {
		uint64_t page;

		switch (g.dist) {
		case DIST_UNIFORM:
			page = prng_below(&rng, g.pages);
			break;
		case DIST_ZIPF:
			page = perm[zipf_rank(cdf, g.pages, prng_unit(&rng))];
			break;
		default:
			page = i % g.pages;
			break;
		}
		if (g.text) {
			fprintf(f, "%llu\n", (unsigned long long)page);
		} else {
			unsigned char rec[8];

			put_le(rec, page, 8);
			fwrite(rec, 1, sizeof(rec), f);
		}
	}
	if (ferror(f) | fclose(f))
		die(EXIT_RUNTIME, "error writing output: %s", strerror(errno));
	if (rename(tmp_path, g.out) < 0)
		die(EXIT_RUNTIME, "cannot rename output into place: %s", strerror(errno));
	free(cdf);
	free(perm);
	return 0;
}
