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

/* Events lost in the gap from start_s to end_s (seconds from the first
 * event; count -1 when unknown): every interval the gap overlaps gets one
 * more lost_gaps, and lost_events gets the count shared out in proportion
 * to the time of the gap in the interval (all of it to end_s's interval
 * when the gap has no length).  Returns 0, or -1 when out of memory. */
int timeline_mark_loss(struct timeline *t, double start_s, double end_s, long long count);

/* CSV: t_s (interval start, seconds from the first event), then one
 * column per source column; NA for unrecorded events, empty for a gauge
 * with no sample in the interval. */
void timeline_write_csv(const struct timeline *t, FILE *out);

#endif
