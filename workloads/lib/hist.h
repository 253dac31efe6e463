/*
 * Latency histogram with log-linear buckets, as HdrHistogram lays them out:
 * values below 2^HIST_SUB_BITS each have their own bucket; above, every
 * power-of-two range [2^k, 2^(k+1)) is cut into 2^(HIST_SUB_BITS-1) equal
 * buckets. A bucket is thus at most 1/2^(HIST_SUB_BITS-1) (3.1%) of its
 * values wide, over the whole 64-bit range, in fixed memory and with O(1)
 * recording. A percentile is reported as the highest value of the bucket
 * holding it (HdrHistogram's "highest equivalent value"), so it is never
 * below the true percentile and at most 3.1% above it.
 */
#ifndef LAB_HIST_H
#define LAB_HIST_H

#include <stdint.h>

struct result;

#define HIST_SUB_BITS 6
#define HIST_HALF (1u << (HIST_SUB_BITS - 1))
#define HIST_BUCKETS ((64 - HIST_SUB_BITS + 1) * HIST_HALF + HIST_HALF)

struct hist {
	uint64_t count;
	uint64_t max;
	uint64_t bucket[HIST_BUCKETS];
};

void hist_reset(struct hist *h);
unsigned hist_index(uint64_t v);
/* The lowest and highest value of bucket i. */
uint64_t hist_bucket_low(unsigned i);
uint64_t hist_bucket_high(unsigned i);
void hist_add(struct hist *h, uint64_t v);
/* The value at percentile p (0 < p <= 100): the highest value of the
 * bucket holding the ceil(p/100 * count)-th smallest value; 0 if empty. */
uint64_t hist_percentile(const struct hist *h, double p);

/* The RESULT fields PREFIXp50_us, PREFIXp99_us and PREFIXp999_us of h,
 * whose values are units_per_us to the microsecond (1e3: nanoseconds). */
void hist_report(const struct hist *h, const char *prefix, double units_per_us,
		 struct result *res);

#endif
