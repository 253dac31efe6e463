#include "lost.h"

#include <stdlib.h>
#include <string.h>

static int grow(struct lost_events *l, int ncpus)
{
	struct lost_cpu *grown = realloc(l->cpu, (size_t)ncpus * sizeof(*grown));

	if (grown == NULL)
		return -1;
	memset(&grown[l->ncpus], 0, (size_t)(ncpus - l->ncpus) * sizeof(*grown));
	l->cpu = grown;
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
	free(l->cpu);
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
	struct lost_cpu *c = &l->cpu[cpu];
	if (rec->missed_events != 0) {
		gap->start_ts = c->seen ? c->last_ts : t0;
		gap->end_ts = rec->ts;
		gap->count = rec->missed_events > 0 ? rec->missed_events : -1;
		c->gaps++;
		if (gap->count > 0)
			c->lost += (unsigned long long)gap->count;
		else
			c->unknown++;
		found = 1;
	}
	c->seen = true;
	c->last_ts = rec->ts;
	return found;
}

struct lost_cpu lost_sum(const struct lost_events *l)
{
	struct lost_cpu sum = { 0 };

	for (int i = 0; i < l->ncpus; i++) {
		sum.lost += l->cpu[i].lost;
		sum.gaps += l->cpu[i].gaps;
		sum.unknown += l->cpu[i].unknown;
	}
	return sum;
}
