/* perf/report.txt: a profile's top kernel symbols by self and by
 * children share of all samples (the numbers perf report --children
 * --sort sym prints), and where the busy and the reclaim CPU went
 * (classify.h's scopes and parts). */
#ifndef PERF_REPORT_H
#define PERF_REPORT_H

#include <stdio.h>

#include "metrics.h"
#include "profile.h"

/* Returns 0, or -1 when out of memory. */
int report_write(FILE *out, const struct profile *p, const struct sampling *s, int top);

#endif
