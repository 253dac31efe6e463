/* Per-interval rows of the timeline CSV. */
#ifndef TIMELINE_H
#define TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "event_sources.h"

struct timeline {
	const struct event_sources *sources;
	double interval_s;
	size_t nrows, capacity;
	double *cells;			/* nrows * sources->ncolumns */
};

void timeline_init(struct timeline *t, const struct event_sources *sources, double interval_s);
void timeline_free(struct timeline *t);

/* The row of interval index, created (with the rows before it) on first
 * use: counters start at 0, gauges at NaN (no sample).  NULL if out of memory. */
double *timeline_row(struct timeline *t, size_t index);

/* CSV: t_s (interval start, seconds from the first event), then one
 * column per source column; NA for unrecorded events, empty for a gauge
 * with no sample in the interval. */
void timeline_write_csv(const struct timeline *t, FILE *out);

#endif
