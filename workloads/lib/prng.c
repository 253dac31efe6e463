#include "prng.h"

uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

void prng_seed(struct prng *p, uint64_t seed)
{
	uint64_t x = seed;

	for (int i = 0; i < 4; i++) {
		x += 0x9e3779b97f4a7c15ULL;
		p->s[i] = mix64(x);
	}
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t prng_next(struct prng *p)
{
	uint64_t *s = p->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t prng_below(struct prng *p, uint64_t n)
{
	/* Rejection keeps the result exactly uniform. */
	uint64_t limit = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;

	do
		x = prng_next(p);
	while (x >= limit);
	return x % n;
}

double prng_unit(struct prng *p)
{
	return (double)(prng_next(p) >> 11) * 0x1.0p-53;
}
