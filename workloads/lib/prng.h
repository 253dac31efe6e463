/* Deterministic pseudo-random numbers: xoshiro256** seeded by splitmix64. */
#ifndef LAB_PRNG_H
#define LAB_PRNG_H

#include <stdint.h>

struct prng {
	uint64_t s[4];
};

/* The splitmix64 finaliser: a cheap, well-mixed 64-bit hash. */
uint64_t mix64(uint64_t x);

void prng_seed(struct prng *p, uint64_t seed);
uint64_t prng_next(struct prng *p);
/* Uniform in [0, n); n must be at least 1. */
uint64_t prng_below(struct prng *p, uint64_t n);
/* Uniform in [0, 1) with 53 random bits. */
double prng_unit(struct prng *p);

#endif
