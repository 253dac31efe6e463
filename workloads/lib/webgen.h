/*
 * Synthetic web-search block trace in the UMass SPC format, shared by
 * webtrace-gen (writes it out) and webtrace (replays it in memory), so the
 * same parameters and seed give the same requests in both.
 *
 * Model (chosen to resemble the UMass WebSearch traces: read-only, ~15 KiB
 * average request, strongly skewed popularity, a footprint bigger than RAM):
 *  - The footprint is split into 32 KiB objects (8 pages); the object count
 *    is footprint / 32 KiB rounded down to a multiple of the ASU count, and
 *    ASU a holds objects a*per_asu .. (a+1)*per_asu-1 at consecutive LBAs.
 *  - Object popularity is Zipf: rank r (0-based) has weight 1/(r+1)^alpha.
 *    Ranks are scattered over the objects by a seeded pseudo-random
 *    permutation, so hot objects lie all over every ASU.
 *  - Request size: 4 KiB 5%, 8 KiB 40%, 16 KiB 30%, 24 KiB 10%, 32 KiB 15%
 *    (mean 15.4 KiB); always a multiple of 4 KiB and page aligned.
 *  - The request starts at a uniformly chosen page of the object such that
 *    it stays inside the object.
 *  - Every request is a read ('r').
 *  - Arrivals are Poisson at --rate requests/s: timestamps increase strictly
 *    (at least 1 us apart) and are written with microsecond precision.
 */
#ifndef LAB_WEBGEN_H
#define LAB_WEBGEN_H

#include "prng.h"
#include "spc.h"

#include <stdint.h>

#define WEBGEN_OBJECT_PAGES 8u
#define WEBGEN_DEFAULT_REQUESTS 150000u
#define WEBGEN_DEFAULT_ASUS 3u
#define WEBGEN_DEFAULT_ALPHA 0.9
#define WEBGEN_DEFAULT_RATE 1000.0
#define WEBGEN_MAX_ASUS 64u

struct webgen_params {
	uint64_t footprint_bytes;
	uint64_t requests;
	unsigned asus;
	double alpha;
	double rate;
	uint64_t seed;
};

struct webgen {
	struct webgen_params p;
	uint64_t objects;
	uint64_t objects_per_asu;
	double *cdf; /* cdf[r] = P(rank <= r) */
	uint64_t perm_key[4];
	unsigned perm_half_bits;
	struct prng rng;
	uint64_t ts_us;
	uint64_t emitted;
};

void webgen_defaults(struct webgen_params *p, uint64_t memtotal);
/* 0, or -1 with *why set (e.g. footprint too small). */
int webgen_init(struct webgen *g, const struct webgen_params *p, const char **why);
/* Next request; the caller stops after p.requests of them. Also returns the
 * object it belongs to (for tests of the popularity model). */
void webgen_next(struct webgen *g, struct spc_req *out, uint64_t *object);
/* Pages of each ASU's file (objects_per_asu * 8). */
uint64_t webgen_asu_pages(const struct webgen *g);
/* The Zipf model's probability that a request hits rank r. */
double webgen_rank_probability(const struct webgen *g, uint64_t r);
/* The object that has popularity rank r. */
uint64_t webgen_object_of_rank(const struct webgen *g, uint64_t r);
void webgen_free(struct webgen *g);

#endif
