#include "metrics.h"

#include <math.h>

static json_t *number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static double share(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : NAN;
}

static double vmstat(json_t *result, const char *key)
{
	json_t *v = json_object_get(json_object_get(result, "vmstat"), key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static double pages_reclaimed(json_t *result)
{
	double anon = vmstat(result, "pgsteal_anon"), file = vmstat(result, "pgsteal_file");
	if (isfinite(anon) && isfinite(file))
		return anon + file;
	double sum = vmstat(result, "pgsteal_kswapd") + vmstat(result, "pgsteal_direct");
	double khugepaged = vmstat(result, "pgsteal_khugepaged");
	return isfinite(khugepaged) ? sum + khugepaged : sum;
}

static double guest_wall(json_t *result)
{
	json_t *v = json_object_get(result, "guest_wall_s");
	return json_is_number(v) && json_number_value(v) > 0 ? json_number_value(v) : NAN;
}

static double seconds_per_sample(double cpus, double wall, double samples)
{
	return samples > 0 && cpus > 0 ? cpus * wall / samples : NAN;
}

double perf_seconds_per_sample(json_t *result)
{
	json_t *perf = json_object_get(result, "perf");
	json_t *cpus = json_object_get(perf, "cpus"), *samples = json_object_get(perf, "samples");
	if (!json_is_number(cpus) || !json_is_number(samples))
		return -1;
	double v = seconds_per_sample(json_number_value(cpus), guest_wall(result),
				      json_number_value(samples));
	return isfinite(v) ? v : -1;
}

/* {part: f(part)...} over the parts. */
static json_t *by_part(const uint64_t *counts, uint64_t whole, double scale)
{
	json_t *o = json_object();

	for (int k = 0; k < NPARTS && o != NULL; k++)
		if (json_object_set_new(o, part_name((enum part)k),
					number(share(counts[k], whole) * scale)) != 0) {
			json_decref(o);
			o = NULL;
		}
	return o;
}

json_t *perf_metrics(const struct profile *p, const struct sampling *s, json_t *result)
{
	uint64_t busy = p->samples - p->idle;
	double wall = guest_wall(result);
	double sps = seconds_per_sample(s->cpus, wall, (double)p->samples);
	double pages = pages_reclaimed(result);
	double reclaim_s = (double)p->reclaim * sps;
	double us_per_page = pages > 0 ? reclaim_s * 1e6 / pages : NAN;
	json_t *split = p->reclaim ? by_part(p->reclaim_part, p->reclaim, 1.0) : json_null();
	json_t *us = p->reclaim && isfinite(us_per_page)
		? by_part(p->reclaim_part, p->reclaim, us_per_page) : json_null();

	if (split == NULL || us == NULL) {
		json_decref(split);
		json_decref(us);
		return NULL;
	}
	return json_pack("{s:f, s:I, s:I, s:I, s:i, s:o, s:o, s:o,"
			 " s:o, s:o, s:o, s:o,"
			 " s:o, s:o, s:o, s:o, s:o,"
			 " s:o, s:o, s:o, s:o, s:o}",
		"freq_hz", round(1e9 / (double)s->period_ns),
		"period_ns", (json_int_t)s->period_ns,
		"samples", (json_int_t)p->samples,
		"idle_samples", (json_int_t)p->idle,
		"cpus", s->cpus,
		"sample_coverage", number((double)p->samples * (double)s->period_ns /
					  ((double)s->cpus * wall * 1e9)),
		"idle_share", number(share(p->idle, p->samples)),
		"busy_cpu_s", number((double)busy * sps),
		"reclaim_cpu_share", number(share(p->reclaim, busy)),
		"kswapd_cpu_share", number(share(p->kswapd, busy)),
		"direct_reclaim_cpu_share", number(share(p->reclaim - p->kswapd, busy)),
		"fault_cpu_share", number(share(p->fault, busy)),
		"policy_cpu_share", number(share(p->part[PART_POLICY], busy)),
		"rmap_cpu_share", number(share(p->part[PART_RMAP], busy)),
		"lock_cpu_share", number(share(p->part[PART_LOCK], busy)),
		"shadow_cpu_share", number(share(p->part[PART_SHADOW], busy)),
		"swapout_cpu_share", number(share(p->part[PART_SWAPOUT], busy)),
		"reclaim_cpu_s", number(reclaim_s),
		"pages_reclaimed", number(pages),
		"us_per_reclaimed_page", number(us_per_page),
		"reclaim_split", split,
		"reclaim_us_per_page", us);
}
