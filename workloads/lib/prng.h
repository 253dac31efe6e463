/*
 * Deterministic pseudo-random numbers for the whole lab's userspace (the
 * workloads, and the simulator through -I workloads/lib): xoshiro256**
 * (Blackman & Vigna, 2018) seeded through splitmix64, so a seed gives the
 * same stream on every machine, unlike rand(). Header-only: include it,
 * nothing to link.
 */
#ifndef LAB_PRNG_H
#define LAB_PRNG_H

#include <stdint.h>

struct prng {
	uint64_t s[4];
};

/* The splitmix64 finaliser (after adding its increment): a cheap,
 * well-mixed 64-bit hash, also used for page stamps and record values. */
static inline uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* State word i is mix64(seed + (i + 1) * golden ratio). */
static inline void prng_seed(struct prng *p, uint64_t seed)
{
	uint64_t x = seed;

	for (int i = 0; i < 4; i++) {
		x += 0x9e3779b97f4a7c15ULL;
		p->s[i] = mix64(x);
	}
}

static inline uint64_t prng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t prng_next(struct prng *p)
{
	uint64_t *s = p->s;
	uint64_t result = prng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = prng_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, n), exactly (rejection); n must be at least 1. */
static inline uint64_t prng_below(struct prng *p, uint64_t n)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;

	do
		x = prng_next(p);
	while (x >= limit);
	return x % n;
}

/* Uniform in [0, 1) with 53 random bits. */
static inline double prng_unit(struct prng *p)
{
	return (double)(prng_next(p) >> 11) * 0x1.0p-53;
}

#endif
