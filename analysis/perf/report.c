#include "report.h"

#include <inttypes.h>
#include <stdlib.h>

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* One table: the top symbols of first (by its count), with second beside. */
static int table(FILE *out, const struct profile *p, const struct strmap *first,
		 const struct strmap *second, const char *by, const char *other, int top)
{
	const struct strmap_entry **list = strmap_sorted(first, STRMAP_BY_COUNT);

	fprintf(out, "\n# Top %d kernel symbols by %s\n# %8s %9s  %s\n", top, by, by, other,
		"symbol");
	if (first->len == 0)
		return 0;
	if (list == NULL)
		return -1;
	for (size_t i = 0; i < first->len && i < (size_t)top; i++)
		fprintf(out, "%9.2f%% %8.2f%%  %s\n", pct(list[i]->count, p->samples),
			pct(strmap_get(second, list[i]->key), p->samples), list[i]->key);
	free(list);
	return 0;
}

int report_write(FILE *out, const struct profile *p, const struct sampling *s, int top)
{
	uint64_t busy = p->samples - p->idle;

	fprintf(out, "# %" PRIu64 " samples of cpu-clock, one every %" PRIu64
		" ns of CPU time (%.0f Hz), %d CPU%s\n",
		p->samples, s->period_ns, 1e9 / (double)s->period_ns, s->cpus, s->cpus == 1 ? "" : "s");
	fprintf(out, "# idle %" PRIu64 " (%.2f%%), busy %" PRIu64 "; symbol shares are of all samples\n",
		p->idle, pct(p->idle, p->samples), busy);
	if (table(out, p, &p->self, &p->children, "self", "children", top) != 0 ||
	    table(out, p, &p->children, &p->self, "children", "self", top) != 0)
		return -1;
	fprintf(out, "\n# Busy CPU by scope (a sample may be in several)\n");
	fprintf(out, "%9.2f%%  reclaim (kswapd %.2f%%, direct %.2f%%)\n", pct(p->reclaim, busy),
		pct(p->kswapd, busy), pct(p->reclaim - p->kswapd, busy));
	fprintf(out, "%9.2f%%  page-fault handling\n", pct(p->fault, busy));
	fprintf(out, "\n# Busy CPU and reclaim CPU by part (each sample in one part)\n");
	fprintf(out, "# %8s %9s  part\n", "busy", "reclaim");
	for (int k = 0; k < NPARTS; k++)
		fprintf(out, "%9.2f%% %8.2f%%  %s\n", pct(p->part[k], busy),
			pct(p->reclaim_part[k], p->reclaim), part_name((enum part)k));
	return 0;
}
