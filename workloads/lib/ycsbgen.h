/*
 * YCSB's request generators, as the YCSB code defines them (Cooper et al.,
 * "Benchmarking Cloud Serving Systems with YCSB", SoCC 2010; the generators
 * of core/src/main/java/site/ycsb/generator/), drawing from the lab's
 * seeded PRNG instead of ThreadLocalRandom so a seed gives the same work:
 *
 *  - zipfian: ZipfianGenerator, the method of Gray et al. ("Quickly
 *    Generating Billion-Record Synthetic Databases", SIGMOD 1994) with
 *    YCSB's constant theta = 0.99. Items 0 and 1 are exact (u*zeta(n) < 1
 *    and < 1 + 0.5^theta); larger ranks come from
 *    n * (eta*u - eta + 1)^(1/(1-theta)). When the item count grows, zeta
 *    is extended incrementally and eta recomputed with the item count the
 *    generator was built with, as YCSB does.
 *  - scrambled zipfian: a zipfian over 10^10 items (zeta precomputed,
 *    26.46902820178302), hashed with FNV-1a 64 and taken modulo the key
 *    range, so popular keys are scattered over the key space.
 *  - latest: SkewedLatestGenerator, last - zipfian(last), where last is
 *    the newest inserted key: the newest records are the most popular.
 *  - uniform: UniformLongGenerator over a fixed range.
 */
#ifndef LAB_YCSBGEN_H
#define LAB_YCSBGEN_H

#include "prng.h"

#include <stddef.h>
#include <stdint.h>

#define YCSB_ZIPFIAN_CONSTANT 0.99
#define YCSB_SCRAMBLED_ITEMS 10000000000ULL
#define YCSB_SCRAMBLED_ZETAN 26.46902820178302

/* YCSB's Utils.fnvhash64: FNV-1a over the 8 bytes of v, low byte first,
 * then the absolute value as a Java long. */
uint64_t ycsb_fnvhash64(uint64_t v);

/* zeta(n, theta) = sum over i = 1..n of 1 / i^theta. */
double ycsb_zeta(uint64_t n, double theta);

struct ycsb_zipfian {
	uint64_t items;        /* the count it was built with (YCSB's "items") */
	uint64_t base;
	double theta, zeta2theta, alpha, zetan, eta;
	uint64_t countforzeta; /* the count zetan is the sum for */
};

/* ZipfianGenerator(min, max) with zetan computed, or given (zetan > 0). */
void ycsb_zipfian_init(struct ycsb_zipfian *z, uint64_t min, uint64_t max, double theta,
		       double zetan);
/* nextLong(itemcount): a value in [base, base + itemcount). */
uint64_t ycsb_zipfian_next(struct ycsb_zipfian *z, struct prng *rng, uint64_t itemcount);

enum ycsb_dist { YCSB_UNIFORM, YCSB_ZIPFIAN, YCSB_LATEST };

/*
 * CoreWorkload's key chooser. records: keys loaded by setup (0..records-1);
 * expected_inserts: how many the run may insert (YCSB sizes the scrambled
 * zipfian's key range as records + 2 * ops * insert proportion).
 */
struct ycsb_keys {
	enum ycsb_dist dist;
	uint64_t records;
	uint64_t last; /* the newest acknowledged key */
	uint64_t range; /* scrambled zipfian: keys it maps onto */
	struct ycsb_zipfian zipf;
};

void ycsb_keys_init(struct ycsb_keys *k, enum ycsb_dist dist, uint64_t records,
		    uint64_t last, uint64_t expected_inserts);
/* nextKeynum(): a key at most the newest one (redrawn otherwise). */
uint64_t ycsb_keys_next(struct ycsb_keys *k, struct prng *rng);
/* An insert of key last + 1 was acknowledged. */
void ycsb_keys_inserted(struct ycsb_keys *k, uint64_t keynum);

/* buildKeyName(keynum) with insertorder=hashed: "user" + fnvhash64(keynum)
 * in decimal. Returns its length; buf needs YCSB_KEY_MAX bytes. */
#define YCSB_KEY_MAX 32
size_t ycsb_key_name(uint64_t keynum, char *buf);

#endif
