#include "summary.h"

#include <stdlib.h>
#include <string.h>

int summary_init(struct summary *s, struct tep_handle *tep)
{
	struct tep_event **events = tep_list_events(tep, TEP_EVENT_SORT_ID);

	memset(s, 0, sizeof(*s));
	s->max_id = -1;
	for (int i = 0; events != NULL && events[i] != NULL; i++)
		if (events[i]->id > s->max_id)
			s->max_id = events[i]->id;
	s->per_event = calloc((size_t)(s->max_id + 2), sizeof(*s->per_event));
	return s->per_event == NULL ? -1 : 0;
}

void summary_free(struct summary *s)
{
	free(s->per_event);
	memset(s, 0, sizeof(*s));
}

static int bucket_of(unsigned long long v)
{
	int b = 0;

	while (v != 0 && b < BATCH_BUCKETS - 1) {
		v >>= 1;
		b++;
	}
	return b;
}

void summary_add_batch(struct summary *s, unsigned long long scanned,
		       unsigned long long taken)
{
	s->batches++;
	s->scanned_hist[bucket_of(scanned)]++;
	s->taken_hist[bucket_of(taken)]++;
}

static void bucket_label(char *buf, size_t len, int b)
{
	if (b == 0)
		snprintf(buf, len, "0");
	else if (b == 1)
		snprintf(buf, len, "1");
	else if (b == BATCH_BUCKETS - 1)
		snprintf(buf, len, ">=%llu", 1ULL << (b - 1));
	else
		snprintf(buf, len, "%llu-%llu", 1ULL << (b - 1), (1ULL << b) - 1);
}

/* The lost (or, with unknown, the unknown-gap) count of every CPU. */
static void write_per_cpu(FILE *out, const struct lost_events *l, bool unknown,
			  const char *open, const char *sep, const char *close)
{
	fputs(open, out);
	for (int c = 0; c < l->ncpus; c++)
		fprintf(out, "%s%llu", c ? sep : "", unknown ? l->cpu[c].unknown : lost_of_cpu(&l->cpu[c]));
	fputs(close, out);
}

static void write_lost(const struct summary *s, const struct lost_events *lost, FILE *out)
{
	struct lost_cpu sum = lost_sum(lost);
	unsigned long long n = sum.last_ts;	/* lost_of_cpu() summed */

	fprintf(out, "lost_events: %llu", n);
	write_per_cpu(out, lost, false, " (per CPU: ", " ", ")\n");
	fprintf(out, "lost_in_gaps: %llu (located in the timeline's intervals; the rest were lost in gaps of "
		"unknown size or after trace-cmd's last read)\n",
		sum.lost);
	fprintf(out, "lost_gaps: %llu", sum.gaps);
	if (sum.unknown > 0)
		fprintf(out, " (%llu of unknown size)", sum.unknown);
	fputc('\n', out);
	if (s->events + n > 0)
		fprintf(out, "lost_share: %.4f%% of the events that happened\n",
			100.0 * (double)n / (double)(s->events + n));
}

void summary_write_json(const struct summary *s, const struct lost_events *lost, FILE *out)
{
	fprintf(out, "{\"trace_events\":%llu,", s->events);
	write_per_cpu(out, lost, false, "\"trace_lost_events\":[", ",", "],");
	write_per_cpu(out, lost, true, "\"trace_lost_unknown_gaps\":[", ",", "]}\n");
}

void summary_write(const struct summary *s, struct tep_handle *tep,
		   const struct event_sources *sources, const struct lost_events *lost,
		   const char *trace_path, FILE *out)
{
	double duration = s->events ? (double)(s->last_ts - s->first_ts) / 1e9 : 0.0;

	fprintf(out, "trace: %s\n", trace_path);
	fprintf(out, "events: %llu\n", s->events);
	fprintf(out, "duration_s: %.6f\n", duration);
	if (duration > 0.0)
		fprintf(out, "events_per_s: %.1f\n", (double)s->events / duration);
	else
		fprintf(out, "events_per_s: n/a\n");
	write_lost(s, lost, out);
	fprintf(out, "\nevent totals (events whose format is in the trace):\n");
	struct tep_event **events = tep_list_events(tep, TEP_EVENT_SORT_SYSTEM);
	for (int i = 0; events != NULL && events[i] != NULL; i++) {
		struct tep_event *ev = events[i];
		if (strcmp(ev->system, "ftrace") == 0 || strcmp(ev->system, "header_page") == 0)
			continue;
		fprintf(out, "  %s:%s %llu\n", ev->system, ev->name, s->per_event[ev->id]);
	}
	fprintf(out, "\nbatch sizes per reclaim batch");
	if (sources->batch_source == NULL) {
		fprintf(out, ": n/a (no candidate or lru_isolate events recorded)\n");
		return;
	}
	fprintf(out, " (%s:%s, %llu batches):\n", sources->batch_source->event->system,
		sources->batch_source->event->name, s->batches);
	fprintf(out, "  %-14s %12s %12s\n", "pages", "scanned", "taken");
	for (int b = 0; b < BATCH_BUCKETS; b++) {
		char label[48];
		if (s->scanned_hist[b] == 0 && s->taken_hist[b] == 0)
			continue;
		bucket_label(label, sizeof(label), b);
		fprintf(out, "  %-14s %12llu %12llu\n", label, s->scanned_hist[b], s->taken_hist[b]);
	}
}
