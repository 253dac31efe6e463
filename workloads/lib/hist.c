#include "hist.h"

#include "result.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void hist_reset(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

unsigned hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < 2 * HIST_HALF)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	shift = msb - (HIST_SUB_BITS - 1);
	return shift * HIST_HALF + (unsigned)(v >> shift);
}

uint64_t hist_bucket_low(unsigned i)
{
	unsigned shift;

	if (i < 2 * HIST_HALF)
		return i;
	shift = i / HIST_HALF - 1;
	return (uint64_t)(i - shift * HIST_HALF) << shift;
}

uint64_t hist_bucket_high(unsigned i)
{
	unsigned shift;

	if (i < 2 * HIST_HALF)
		return i;
	shift = i / HIST_HALF - 1;
	return hist_bucket_low(i) + ((uint64_t)1 << shift) - 1;
}

void hist_add(struct hist *h, uint64_t v)
{
	h->bucket[hist_index(v)]++;
	h->count++;
	if (v > h->max)
		h->max = v;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0;

	if (!h->count)
		return 0;
	rank = (uint64_t)ceil(p / 100 * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			return hist_bucket_high(i) < h->max ? hist_bucket_high(i) : h->max;
	}
	return h->max;
}

void hist_report(const struct hist *h, const char *prefix, double units_per_us,
		 struct result *res)
{
	static const struct {
		const char *name;
		double p;
	} pcts[] = { { "p50", 50 }, { "p99", 99 }, { "p999", 99.9 } };
	char key[96];

	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		snprintf(key, sizeof(key), "%s%s_us", prefix, pcts[i].name);
		result_num(res, key, (double)hist_percentile(h, pcts[i].p) / units_per_us);
	}
}
