#include "ycsbgen.h"

#include <math.h>
#include <stdio.h>

uint64_t ycsb_fnvhash64(uint64_t v)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (int i = 0; i < 8; i++) {
		h ^= v & 0xff;
		v >>= 8;
		h *= 1099511628211ULL;
	}
	/* Math.abs of a Java long: Long.MIN_VALUE stays as it is. */
	return (int64_t)h < 0 && h != (1ULL << 63) ? (uint64_t)-(int64_t)h : h;
}

static double zeta_from(uint64_t st, uint64_t n, double theta, double initial)
{
	double sum = initial;

	for (uint64_t i = st; i < n; i++)
		sum += 1 / pow((double)(i + 1), theta);
	return sum;
}

double ycsb_zeta(uint64_t n, double theta)
{
	return zeta_from(0, n, theta, 0);
}

void ycsb_zipfian_init(struct ycsb_zipfian *z, uint64_t min, uint64_t max, double theta,
		       double zetan)
{
	z->items = max - min + 1;
	z->base = min;
	z->theta = theta;
	z->zeta2theta = ycsb_zeta(2, theta);
	z->alpha = 1 / (1 - theta);
	z->zetan = zetan > 0 ? zetan : ycsb_zeta(z->items, theta);
	z->countforzeta = z->items;
	z->eta = (1 - pow(2.0 / (double)z->items, 1 - theta)) / (1 - z->zeta2theta / z->zetan);
}

uint64_t ycsb_zipfian_next(struct ycsb_zipfian *z, struct prng *rng, uint64_t itemcount)
{
	double u, uz;

	if (itemcount > z->countforzeta) {
		/* YCSB extends zeta and keeps its original item count in eta. */
		z->zetan = zeta_from(z->countforzeta, itemcount, z->theta, z->zetan);
		z->countforzeta = itemcount;
		z->eta = (1 - pow(2.0 / (double)z->items, 1 - z->theta)) /
			 (1 - z->zeta2theta / z->zetan);
	}
	u = prng_unit(rng);
	uz = u * z->zetan;
	if (uz < 1.0)
		return z->base;
	if (uz < 1.0 + pow(0.5, z->theta))
		return z->base + 1;
	return z->base + (uint64_t)((double)itemcount * pow(z->eta * u - z->eta + 1, z->alpha));
}

void ycsb_keys_init(struct ycsb_keys *k, enum ycsb_dist dist, uint64_t records,
		    uint64_t last, uint64_t expected_inserts)
{
	k->dist = dist;
	k->records = records;
	k->last = last;
	k->range = records + expected_inserts;
	if (dist == YCSB_ZIPFIAN)
		ycsb_zipfian_init(&k->zipf, 0, YCSB_SCRAMBLED_ITEMS, YCSB_ZIPFIAN_CONSTANT,
				  YCSB_SCRAMBLED_ZETAN);
	else if (dist == YCSB_LATEST)
		ycsb_zipfian_init(&k->zipf, 0, last - 1, YCSB_ZIPFIAN_CONSTANT, 0);
}

static uint64_t draw(struct ycsb_keys *k, struct prng *rng)
{
	switch (k->dist) {
	case YCSB_ZIPFIAN:
		return ycsb_fnvhash64(ycsb_zipfian_next(&k->zipf, rng, k->zipf.items)) % k->range;
	case YCSB_LATEST:
		return k->last - ycsb_zipfian_next(&k->zipf, rng, k->last);
	default:
		return prng_below(rng, k->records);
	}
}

uint64_t ycsb_keys_next(struct ycsb_keys *k, struct prng *rng)
{
	uint64_t key;

	do
		key = draw(k, rng);
	while (key > k->last);
	return key;
}

void ycsb_keys_inserted(struct ycsb_keys *k, uint64_t keynum)
{
	if (keynum > k->last)
		k->last = keynum;
}

size_t ycsb_key_name(uint64_t keynum, char *buf)
{
	int64_t h = (int64_t)ycsb_fnvhash64(keynum);

	return (size_t)snprintf(buf, YCSB_KEY_MAX, "user%lld", (long long)h);
}
