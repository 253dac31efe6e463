/* Per-run summary: event totals, duration, rate, batch-size histogram. */
#ifndef SUMMARY_H
#define SUMMARY_H

#include <stdio.h>
#include <event-parse.h>

#include "event_sources.h"
#include "lost.h"

/* Buckets 0, 1, 2-3, 4-7, ... , 2^(N-2) and above. */
#define BATCH_BUCKETS 22

struct summary {
	int max_id;
	unsigned long long *per_event;	/* indexed by event id */
	unsigned long long events;
	unsigned long long first_ts, last_ts;
	unsigned long long batches;
	unsigned long long scanned_hist[BATCH_BUCKETS];
	unsigned long long taken_hist[BATCH_BUCKETS];
};

/* Returns 0, or -1 when out of memory. */
int summary_init(struct summary *s, struct tep_handle *tep);
void summary_free(struct summary *s);

void summary_add_batch(struct summary *s, unsigned long long scanned,
		       unsigned long long taken);

void summary_write(const struct summary *s, struct tep_handle *tep,
		   const struct event_sources *sources, const struct lost_events *lost,
		   const char *trace_path, FILE *out);

/* The result.json keys of a traced run (CONTRACTS.md), as one JSON
 * object: trace_events, trace_lost_events and trace_lost_unknown_gaps
 * (both per CPU). */
void summary_write_json(const struct summary *s, const struct lost_events *lost, FILE *out);

#endif
