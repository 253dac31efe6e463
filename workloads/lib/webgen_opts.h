/* Command-line options of the web-search trace generator, shared by
 * webtrace-gen and webtrace so both accept the same parameters. */
#ifndef LAB_WEBGEN_OPTS_H
#define LAB_WEBGEN_OPTS_H

#include "webgen.h"

#include <getopt.h>

enum {
	WEBGEN_OPT_FOOTPRINT = 0x1000,
	WEBGEN_OPT_REQUESTS,
	WEBGEN_OPT_ASUS,
	WEBGEN_OPT_ALPHA,
	WEBGEN_OPT_RATE,
};

/* The generator's options as OPT(name, val), all taking a value: the one
 * list behind webtrace-gen's getopt table and webtrace's driver table. */
#define WEBGEN_OPTIONS(OPT)                        \
	OPT("footprint", WEBGEN_OPT_FOOTPRINT)     \
	OPT("size", WEBGEN_OPT_FOOTPRINT)          \
	OPT("requests", WEBGEN_OPT_REQUESTS)       \
	OPT("asus", WEBGEN_OPT_ASUS)               \
	OPT("alpha", WEBGEN_OPT_ALPHA)             \
	OPT("rate", WEBGEN_OPT_RATE)

/* Their getopt_long entries, each with its comma. */
#define WEBGEN_GETOPT(name, val) { name, required_argument, NULL, val },
#define WEBGEN_LONGOPTS WEBGEN_OPTIONS(WEBGEN_GETOPT)

/* Help lines: plain text, printed with "%s" (not a printf format). */
#define WEBGEN_HELP                                                           \
	"  --footprint SIZE  bytes covered by the trace, K/M/G/T or N% of\n"    \
	"                    MemTotal (default 150%); --size is the same\n"      \
	"  --requests N      number of requests (default 150000)\n"             \
	"  --asus N          ASUs (storage units, one file each; default 3)\n"  \
	"  --alpha X         Zipf exponent of object popularity (default 0.9)\n" \
	"  --rate X          mean arrival rate, requests/s (default 1000)\n"    \
	"  Model: 32 KiB objects, Zipf popularity over a seeded permutation,\n"  \
	"  sizes 4K 5%, 8K 40%, 16K 30%, 24K 10%, 32K 15% inside one\n"       \
	"  object, read-only, Poisson arrivals (see workloads/README.md).\n"

/* Help lines (plain text, no printf format). */

/* Handle one generator option; returns 1 if c was one, 0 otherwise.
 * *footprint_arg receives --footprint/--size for parsing once MemTotal is
 * known. Bad values exit 2. */
int webgen_option(int c, const char *arg, struct webgen_params *p, const char **footprint_arg);

/* Apply the footprint argument and validate; exits 2 with a message. */
void webgen_finish_options(struct webgen_params *p, const char *footprint_arg);

#endif
