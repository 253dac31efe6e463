#include "lost.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libtracecmd 1.3 exports this but declares it only in its private
 * header: the "CPU: N" blocks of the kernel's per_cpu/cpuN/stats, as
 * trace-cmd record saved them at the end of the recording. */
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);

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

int lost_read_kernel_stats(struct lost_events *l, struct tracecmd_input *handle)
{
	const char *stats = tracecmd_get_cpustats(handle);
	int cpu = -1;

	for (const char *line = stats; line != NULL && *line; line = strchr(line, '\n')) {
		unsigned long long v;
		int n;

		if (*line == '\n')
			line++;
		if (sscanf(line, "CPU: %d", &n) == 1) {
			cpu = n;
			if (cpu >= l->ncpus && grow(l, cpu + 1) != 0)
				return -1;
		} else if (cpu >= 0 && (sscanf(line, "overrun: %llu", &v) == 1 ||
					sscanf(line, "dropped events: %llu", &v) == 1)) {
			l->cpu[cpu].kernel += v;
		}
	}
	return 0;
}

unsigned long long lost_of_cpu(const struct lost_cpu *c)
{
	return c->kernel > c->lost ? c->kernel : c->lost;
}

struct lost_cpu lost_sum(const struct lost_events *l)
{
	struct lost_cpu sum = { 0 };

	for (int i = 0; i < l->ncpus; i++) {
		sum.lost += l->cpu[i].lost;
		sum.gaps += l->cpu[i].gaps;
		sum.unknown += l->cpu[i].unknown;
		sum.kernel += l->cpu[i].kernel;
		sum.last_ts += lost_of_cpu(&l->cpu[i]);
	}
	return sum;
}
