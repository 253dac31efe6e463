/* result.json's "perf" object (CONTRACTS.md), from a profile and the
 * run's own result.json.
 *
 * Time.  cpu-clock fires every period of CPU time on each CPU, but under
 * TCG a timer that fires late (the host did not run the guest's vCPU)
 * drops the periods it missed, so samples x period undercounts.  The
 * samples are therefore read as shares, and the time they share is the
 * timed phase on the guest's clock (guest_wall_s) on each CPU that
 * sampled: seconds per sample = cpus x guest_wall_s / samples.
 * sample_coverage (samples x period / (cpus x guest_wall_s)) says how
 * many of the periods were sampled.
 *
 * Pages reclaimed: vmstat's pgsteal_anon + pgsteal_file (every reclaim,
 * memcg's included), or pgsteal_kswapd + pgsteal_direct (+ khugepaged)
 * on kernels without them. */
#ifndef METRICS_H
#define METRICS_H

#include <jansson.h>
#include <stdint.h>

#include "profile.h"

struct sampling {
	uint64_t period_ns;	/* of every sample */
	int cpus;		/* CPUs that sampled */
};

/* The perf object; NULL when out of memory. */
json_t *perf_metrics(const struct profile *p, const struct sampling *s, json_t *result);

/* Seconds of CPU time per sample of the run whose result.json is
 * result, from its perf object (cpus, samples) and guest_wall_s; a
 * negative number when they are missing. */
double perf_seconds_per_sample(json_t *result);

#endif
