/* The headline table of RESULTS.md (labstat --headline, lab.sh results):
 * each policy on each workload, the pages it read back (the workload's
 * read_back counter in lab/registry/workloads.tsv: pswpin for anonymous
 * memory, file refaults for the page cache) as mean ± 95% CI over its
 * runs, and against the baseline policy: the ratio with Welch's p, then
 * the ratios of wall time and of the workload's own rate (its rate field
 * in the registry).  Rows in the registry's order of workloads and
 * policies. */
#ifndef HEADLINE_H
#define HEADLINE_H

#include <stdio.h>

#include "compare.h"
#include "runs.h"
#include "table.h"

/* Returns 0, -1 after one error line, or -2 after one line when a table
 * would mix experiments (as comparison_build). */
int headline_write(FILE *out, enum table_format format, const struct run_set *runs,
		   const struct grouping *g, const char *baseline);

#endif
