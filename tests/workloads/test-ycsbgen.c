/*
 * Unit tests of the YCSB request generators (lib/ycsbgen.c) against values
 * computed independently: the Zipf law's own probabilities (1/(i+1)^0.99
 * over zeta), FNV-1a 64 hashes computed in Python from the algorithm's
 * definition, and YCSB's well-known first key, "user6284781860667377211".
 * Counts are over 10^6 draws and must lie within 4 standard deviations
 * (binomial) of the expectation.
 */
#include "tap.h"
#include "ycsbgen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DRAWS 1000000u
#define ITEMS 1000u

/* |count - N p| <= 4 sqrt(N p (1 - p)) */
static int near_expected(uint64_t count, double p)
{
	double mean = DRAWS * p;

	return fabs((double)count - mean) <= 4 * sqrt(mean * (1 - p));
}

static void hash_and_keys(void)
{
	char key[YCSB_KEY_MAX];

	tap_ok(ycsb_fnvhash64(0) == 6284781860667377211ULL, "fnvhash64(0)");
	tap_ok(ycsb_fnvhash64(1) == 8517097267634966620ULL, "fnvhash64(1)");
	tap_ok(ycsb_fnvhash64(1000) == 5952875239596136740ULL, "fnvhash64(1000)");
	tap_ok(ycsb_fnvhash64(123456789) == 2350796791908741607ULL, "fnvhash64(123456789)");
	ycsb_key_name(0, key);
	tap_ok(!strcmp(key, "user6284781860667377211"), "key 0 is YCSB's user6284781860667377211 (%s)",
	       key);
}

static void zipfian(void)
{
	static uint64_t count[ITEMS];
	struct ycsb_zipfian z;
	struct prng rng;
	double zeta = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, top = 0, slope;
	uint64_t top_count = 0, out = 0;
	int m = 0;

	for (unsigned i = 1; i <= ITEMS; i++)
		zeta += pow(i, -0.99);
	tap_ok(fabs(ycsb_zeta(ITEMS, 0.99) - zeta) < 1e-9, "zeta(1000, 0.99) = %.6f", zeta);
	prng_seed(&rng, 42);
	ycsb_zipfian_init(&z, 0, ITEMS - 1, YCSB_ZIPFIAN_CONSTANT, 0);
	for (unsigned i = 0; i < DRAWS; i++) {
		uint64_t v = ycsb_zipfian_next(&z, &rng, ITEMS);

		if (v < ITEMS)
			count[v]++;
		else
			out++;
	}
	tap_ok(out == 0, "every draw is in [0, 1000)");
	/* Items 0 and 1 are exact in Gray et al.'s method. */
	tap_ok(near_expected(count[0], 1 / zeta), "item 0: %llu draws, Zipf expects %.0f",
	       (unsigned long long)count[0], DRAWS / zeta);
	tap_ok(near_expected(count[1], pow(2, -0.99) / zeta), "item 1: %llu draws, Zipf expects %.0f",
	       (unsigned long long)count[1], DRAWS * pow(2, -0.99) / zeta);
	/* The rest follow the law's slope: log count vs log rank. */
	for (unsigned i = 0; i < ITEMS; i++) {
		double x = log(i + 1.0), y;

		if (i < 100) {
			top_count += count[i];
			top += pow(i + 1, -0.99) / zeta;
		}
		if (!count[i])
			continue;
		y = log((double)count[i]);
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
		m++;
	}
	slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
	tap_ok(fabs(slope + 0.99) < 0.03, "log-log slope %.4f is the constant -0.99 (+-0.03)", slope);
	tap_ok(fabs((double)top_count / DRAWS - top) < 0.03 * top,
	       "the 100 hottest items get %.4f of draws, Zipf %.4f (+-3%%)",
	       (double)top_count / DRAWS, top);
}

static void scrambled(void)
{
	struct ycsb_keys k;
	struct prng rng;
	const uint64_t range = 1000000;
	uint64_t hot0 = ycsb_fnvhash64(0) % range, hot1 = ycsb_fnvhash64(1) % range;
	uint64_t c0 = 0, c1 = 0;

	prng_seed(&rng, 7);
	ycsb_keys_init(&k, YCSB_ZIPFIAN, range, range - 1, 0);
	for (unsigned i = 0; i < DRAWS; i++) {
		uint64_t key = ycsb_keys_next(&k, &rng);

		c0 += key == hot0;
		c1 += key == hot1;
	}
	/* Rank r of 10^10 items has 1/(r+1)^0.99 / 26.469; other ranks hashed
	 * onto the same key add about 1/range. */
	tap_ok(near_expected(c0, 1 / YCSB_SCRAMBLED_ZETAN + 1e-6),
	       "scrambled zipfian: key fnv(0) %% n gets %llu draws, expected %.0f",
	       (unsigned long long)c0, DRAWS / YCSB_SCRAMBLED_ZETAN);
	tap_ok(near_expected(c1, pow(2, -0.99) / YCSB_SCRAMBLED_ZETAN + 1e-6),
	       "scrambled zipfian: key fnv(1) %% n gets %llu draws, expected %.0f",
	       (unsigned long long)c1, DRAWS * pow(2, -0.99) / YCSB_SCRAMBLED_ZETAN);
}

static void latest(void)
{
	struct ycsb_keys k;
	struct prng rng;
	uint64_t newest = 0, second = 0, zero = 0, inserted = 0, later = 0;
	double zeta = 0, zeta2 = 0;

	/* 1000 records: keys 0..999, the newest is 999; it draws 999 - z with z
	 * zipfian over [0, 999). */
	for (unsigned i = 1; i < ITEMS; i++)
		zeta += pow(i, -0.99);
	prng_seed(&rng, 9);
	ycsb_keys_init(&k, YCSB_LATEST, ITEMS, ITEMS - 1, 0);
	for (unsigned i = 0; i < DRAWS; i++) {
		uint64_t key = ycsb_keys_next(&k, &rng);

		newest += key == ITEMS - 1;
		second += key == ITEMS - 2;
		zero += key == 0;
	}
	tap_ok(near_expected(newest, 1 / zeta), "latest: the newest key gets %llu draws, expected %.0f",
	       (unsigned long long)newest, DRAWS / zeta);
	tap_ok(near_expected(second, pow(2, -0.99) / zeta),
	       "latest: the one before gets %llu draws, expected %.0f", (unsigned long long)second,
	       DRAWS * pow(2, -0.99) / zeta);
	tap_ok(zero == 0, "latest: key 0 is never drawn (YCSB's last - zipfian(last))");
	/* An insert makes the new key the hottest: zeta extended to 1000 items. */
	ycsb_keys_inserted(&k, ITEMS);
	zeta2 = zeta + pow(ITEMS, -0.99);
	for (unsigned i = 0; i < DRAWS; i++) {
		uint64_t key = ycsb_keys_next(&k, &rng);

		inserted += key == ITEMS;
		later += key > ITEMS;
	}
	tap_ok(near_expected(inserted, 1 / zeta2),
	       "latest: after an insert the new key gets %llu draws, expected %.0f",
	       (unsigned long long)inserted, DRAWS / zeta2);
	tap_ok(later == 0, "no key beyond the newest is drawn");
}

static void uniform(void)
{
	struct ycsb_keys k;
	struct prng rng;
	static uint64_t count[ITEMS];
	uint64_t max = 0, min = UINT64_MAX;

	prng_seed(&rng, 11);
	ycsb_keys_init(&k, YCSB_UNIFORM, ITEMS, ITEMS - 1, 0);
	for (unsigned i = 0; i < DRAWS; i++)
		count[ycsb_keys_next(&k, &rng)]++;
	for (unsigned i = 0; i < ITEMS; i++) {
		max = count[i] > max ? count[i] : max;
		min = count[i] < min ? count[i] : min;
	}
	tap_ok(near_expected(min, 1.0 / ITEMS) && near_expected(max, 1.0 / ITEMS),
	       "uniform: every key within 4 sigma of 1000 draws (%llu..%llu)",
	       (unsigned long long)min, (unsigned long long)max);
}

int main(void)
{
	hash_and_keys();
	zipfian();
	scrambled();
	latest();
	uniform();
	return tap_done();
}
