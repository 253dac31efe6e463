#include "lost.h"

#include <stdlib.h>
#include <string.h>

static int grow(struct lost_events *l, int ncpus)
{
	size_t n = (size_t)ncpus;
	unsigned long long *lost = realloc(l->lost, n * sizeof(*lost));
	if (lost != NULL)
		l->lost = lost;
	unsigned long long *gaps = realloc(l->gaps, n * sizeof(*gaps));
	if (gaps != NULL)
		l->gaps = gaps;
	unsigned long long *unknown = realloc(l->unknown, n * sizeof(*unknown));
	if (unknown != NULL)
		l->unknown = unknown;
	unsigned long long *last = realloc(l->last_ts, n * sizeof(*last));
	if (last != NULL)
		l->last_ts = last;
	bool *seen = realloc(l->seen, n * sizeof(*seen));
	if (seen != NULL)
		l->seen = seen;
	if (!lost || !gaps || !unknown || !last || !seen)
		return -1;
	for (int c = l->ncpus; c < ncpus; c++) {
		l->lost[c] = l->gaps[c] = l->unknown[c] = l->last_ts[c] = 0;
		l->seen[c] = false;
	}
	l->ncpus = ncpus;
	return 0;
}

int lost_init(struct lost_events *l, int ncpus)
{
	memset(l, 0, sizeof(*l));
	return grow(l, ncpus > 0 ? ncpus : 1);
}

void lost_free(struct lost_events *l)
{
	free(l->lost);
	free(l->gaps);
	free(l->unknown);
	free(l->last_ts);
	free(l->seen);
	memset(l, 0, sizeof(*l));
}

int lost_account(struct lost_events *l, int cpu, const struct tep_record *rec,
		 unsigned long long t0, struct lost_gap *gap)
{
	int found = 0;

	if (cpu < 0)
		return 0;
	if (cpu >= l->ncpus && grow(l, cpu + 1) != 0)
		return -1;
	if (rec->missed_events != 0) {
		gap->start_ts = l->seen[cpu] ? l->last_ts[cpu] : t0;
		gap->end_ts = rec->ts;
		gap->count = rec->missed_events > 0 ? rec->missed_events : -1;
		l->gaps[cpu]++;
		if (gap->count > 0)
			l->lost[cpu] += (unsigned long long)gap->count;
		else
			l->unknown[cpu]++;
		found = 1;
	}
	l->seen[cpu] = true;
	l->last_ts[cpu] = rec->ts;
	return found;
}

static unsigned long long sum(const unsigned long long *v, int n)
{
	unsigned long long s = 0;

	for (int i = 0; i < n; i++)
		s += v[i];
	return s;
}

unsigned long long lost_total(const struct lost_events *l)
{
	return sum(l->lost, l->ncpus);
}

unsigned long long lost_total_gaps(const struct lost_events *l)
{
	return sum(l->gaps, l->ncpus);
}

unsigned long long lost_total_unknown(const struct lost_events *l)
{
	return sum(l->unknown, l->ncpus);
}
