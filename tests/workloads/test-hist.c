/* Unit tests of the latency histogram (lib/hist.c): bucket bounds and
 * percentiles against sorted values computed here. */
#include "hist.h"
#include "tap.h"

#include <stdlib.h>

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(void)
{
	static struct hist h;
	static uint64_t v[100000];
	int contiguous = 1, inside = 1, within = 1;
	uint64_t x = 88172645463325252ULL;

	for (unsigned i = 1; i < HIST_BUCKETS; i++)
		if (hist_bucket_low(i) != hist_bucket_high(i - 1) + 1)
			contiguous = 0;
	tap_ok(contiguous, "buckets tile the values without gaps");
	for (uint64_t t = 1; t < (1ULL << 62); t = t * 3 + 1) {
		unsigned i = hist_index(t);

		if (hist_bucket_low(i) > t || hist_bucket_high(i) < t)
			inside = 0;
		if ((double)(hist_bucket_high(i) - hist_bucket_low(i)) > t / 32.0 + 1)
			within = 0;
	}
	tap_ok(inside, "every value lies in its bucket");
	tap_ok(within, "a bucket is at most 1/32 of its values wide");
	tap_ok(hist_index(UINT64_MAX) == HIST_BUCKETS - 1, "the top bucket holds 2^64-1");

	hist_reset(&h);
	tap_ok(hist_percentile(&h, 50) == 0, "an empty histogram reports 0");
	/* Log-spread values (xorshift), like latencies from 1 us to 10 ms. */
	for (unsigned i = 0; i < 100000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v[i] = 1000 + x % 10000000 / (1 + x % 97);
		hist_add(&h, v[i]);
	}
	qsort(v, 100000, sizeof(v[0]), cmp_u64);
	{
		const double ps[] = { 50, 99, 99.9, 100 };
		const unsigned rank[] = { 50000, 99000, 99900, 100000 };

		for (int i = 0; i < 4; i++) {
			uint64_t exact = v[rank[i] - 1], got = hist_percentile(&h, ps[i]);

			tap_ok(got >= exact && (double)got <= exact * (1 + 1.0 / 32),
			       "p%g: %llu, exact %llu (at most 3.1%% above)", ps[i],
			       (unsigned long long)got, (unsigned long long)exact);
		}
	}
	tap_ok(hist_percentile(&h, 100) == v[99999], "p100 is the maximum");
	return tap_done();
}
