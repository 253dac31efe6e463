#include "scan.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define PID_SLOTS 4096

/* page_replace_batch's six counts land in six adjacent columns. */
_Static_assert(COL_REMEMBERED_ANON == COL_ACTIVATED_ANON + 2 &&
	       COL_REFAULTED_FILE == COL_ACTIVATED_ANON + 5, "batch count columns");

/* Direct reclaim begins waiting for their end, keyed by pid (a task can
 * migrate between CPUs while it reclaims). */
struct pending_reclaim {
	int pid;
	bool used;
	unsigned long long ts;
};

struct scan_state {
	const struct event_sources *sources;
	struct timeline *timeline;
	struct summary *summary;
	struct lost_events *lost;
	struct tep_handle *tep;
	unsigned long long interval_ns;
	unsigned long long t0;
	bool started;
	bool failed;
	struct pending_reclaim pending[PID_SLOTS];
};

static unsigned long long read_field(struct tep_format_field *f, struct tep_record *rec)
{
	unsigned long long v = 0;

	tep_read_number_field(f, rec->data, &v);
	return v;
}

static struct pending_reclaim *pending_slot(struct scan_state *st, int pid, bool create)
{
	unsigned idx = (unsigned)pid % PID_SLOTS;

	for (unsigned probe = 0; probe < PID_SLOTS; probe++) {
		struct pending_reclaim *p = &st->pending[(idx + probe) % PID_SLOTS];
		if (p->used && p->pid == pid)
			return p;
		if (!p->used)
			return create ? p : NULL;
	}
	return NULL;
}

static void pending_remove(struct scan_state *st, struct pending_reclaim *p)
{
	/* Backward-shift deletion keeps linear probing chains intact. */
	size_t hole = (size_t)(p - st->pending);
	for (size_t next = (hole + 1) % PID_SLOTS; st->pending[next].used;
	     next = (next + 1) % PID_SLOTS) {
		size_t home = (unsigned)st->pending[next].pid % PID_SLOTS;
		bool movable = hole <= next ? (home <= hole || home > next)
					    : (home <= hole && home > next);
		if (movable) {
			st->pending[hole] = st->pending[next];
			hole = next;
		}
	}
	st->pending[hole].used = false;
}

static void direct_reclaim(struct scan_state *st, struct tep_record *rec, double *row, bool begin)
{
	int pid = tep_data_pid(st->tep, rec);
	struct pending_reclaim *p = pending_slot(st, pid, begin);

	if (begin) {
		row[COL_DIRECT_RECLAIMS] += 1.0;
		if (p != NULL) {
			p->pid = pid;
			p->used = true;
			p->ts = rec->ts;
		}
	} else if (p != NULL) {
		row[COL_DIRECT_RECLAIM_MS] += (double)(rec->ts - p->ts) / 1e6;
		pending_remove(st, p);
	}
}

static void account(struct scan_state *st, const struct event_source *src,
		    struct tep_record *rec, double *row)
{
	struct tep_format_field *const *f = src->field;

	switch (src->kind) {
	case SRC_LRU_ISOLATE:
	case SRC_CANDIDATES: {
		unsigned long long kind = read_field(f[0], rec);
		/* lru: LRU_INACTIVE_ANON 0, ACTIVE_ANON 1, INACTIVE_FILE 2,
		 * ACTIVE_FILE 3; candidates: file 0/1. */
		bool file = src->kind == SRC_LRU_ISOLATE ? kind == 2 : kind != 0;
		/* Inactive lists only, as vmstat's pgscan and the lab's
		 * candidates count: an active list's isolation is a refill. */
		bool counted = src->kind == SRC_CANDIDATES || kind == 0 || kind == 2;
		unsigned long long scanned = read_field(f[1], rec), taken = read_field(f[2], rec);
		if (counted) {
			row[file ? COL_SCANNED_FILE : COL_SCANNED_ANON] += (double)scanned;
			row[file ? COL_TAKEN_FILE : COL_TAKEN_ANON] += (double)taken;
		}
		if (src == st->sources->batch_source)
			summary_add_batch(st->summary, scanned, taken);
		break;
	}
	case SRC_SHRINK_INACTIVE: {
		bool file = read_field(f[0], rec) & 0x2;	/* RECLAIM_WB_FILE */
		row[file ? COL_RECLAIMED_FILE : COL_RECLAIMED_ANON] += (double)read_field(f[1], rec);
		if (f[2] != NULL) {	/* nr_activate[0] is anon, [1] file */
			row[COL_ACTIVATED_ANON] += (double)read_field(f[2], rec);
			row[COL_ACTIVATED_FILE] += (double)read_field(f[3], rec);
		}
		break;
	}
	case SRC_SHRINK_ACTIVE: {
		bool file = read_field(f[0], rec) & 0x2;
		row[file ? COL_DEACTIVATED_FILE : COL_DEACTIVATED_ANON] += (double)read_field(f[1], rec);
		break;
	}
	case SRC_ACTIVATE:	/* a move down is a deactivation, counted elsewhere */
		if (read_field(f[2], rec) >= read_field(f[1], rec))
			row[read_field(f[0], rec) ? COL_ACTIVATED_FILE : COL_ACTIVATED_ANON] += 1.0;
		break;
	case SRC_BATCH_COUNTS:	/* pages: activated, remembered, refaulted */
		for (int i = 0; i < 6; i++)
			row[COL_ACTIVATED_ANON + i] += (double)read_field(f[i], rec);
		break;
	case SRC_REMEMBER:	/* field 0 is swap: 1 for anon, 0 for file */
		row[read_field(f[0], rec) ? COL_REMEMBERED_ANON : COL_REMEMBERED_FILE] += 1.0;
		break;
	case SRC_FORGET:
		if (read_field(f[1], rec) == src->refault_reason)
			row[read_field(f[0], rec) ? COL_REFAULTED_ANON : COL_REFAULTED_FILE] += 1.0;
		break;
	case SRC_WRITE_FOLIO: {
		unsigned long long flags = read_field(f[0], rec);
		if (flags & 0x1)	/* RECLAIM_WB_ANON: pageout to swap */
			row[COL_SWAPOUT] += 1.0;
		if (flags & 0x2)
			row[COL_FILE_WRITES] += 1.0;
		break;
	}
	case SRC_DIRECT_BEGIN:
	case SRC_DIRECT_END:
		direct_reclaim(st, rec, row, src->kind == SRC_DIRECT_BEGIN);
		break;
	case SRC_COUNT:
		row[src->count_column] += 1.0;
		break;
	case SRC_POLICY_STATE: {
		int first = src->first_column;
		if (src->type_field != NULL && read_field(src->type_field, rec) != 0)
			first += src->nfields_state;
		for (int i = 0; i < src->nfields_state; i++)
			row[first + i] = (double)read_field(src->state_fields[i], rec);
		break;
	}
	case SOURCE_KINDS:
		break;
	}
}

/* Marks the intervals of a gap before this record in which the ring
 * buffer lost events. */
static int account_loss(struct scan_state *st, struct tep_record *rec, int cpu)
{
	struct lost_gap gap;
	int r = lost_account(st->lost, cpu, rec, st->t0, &gap);

	if (r <= 0)
		return r;
	double start = (double)(gap.start_ts > st->t0 ? gap.start_ts - st->t0 : 0) / 1e9;
	double end = (double)(gap.end_ts > st->t0 ? gap.end_ts - st->t0 : 0) / 1e9;
	return timeline_mark_loss(st->timeline, start, end, gap.count);
}

static int on_record(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *data)
{
	struct scan_state *st = data;
	(void)handle;

	int id = tep_data_type(st->tep, rec);
	if (!st->started) {
		st->started = true;
		st->t0 = rec->ts;
		st->summary->first_ts = rec->ts;
	}
	st->summary->events++;
	if (rec->ts > st->summary->last_ts)
		st->summary->last_ts = rec->ts;
	if (id >= 0 && id <= st->summary->max_id)
		st->summary->per_event[id]++;
	if (account_loss(st, rec, cpu) != 0) {
		st->failed = true;
		return -1;
	}

	const struct event_source *src = event_sources_lookup(st->sources, id);
	if (src == NULL)
		return 0;
	/* Records come in time order; the guard only keeps a clock step
	 * backwards from wrapping around. */
	unsigned long long since = rec->ts > st->t0 ? rec->ts - st->t0 : 0;
	double *row = timeline_row(st->timeline, (size_t)(since / st->interval_ns));
	if (row == NULL) {
		st->failed = true;
		return -1;
	}
	account(st, src, rec, row);
	return 0;
}

int scan_trace(struct tracecmd_input *handle, const struct event_sources *sources,
	       struct timeline *timeline, struct summary *summary,
	       struct lost_events *lost, unsigned long long interval_ns)
{
	struct scan_state *st = calloc(1, sizeof(*st));

	if (st == NULL) {
		fprintf(stderr, "trace-timeline: out of memory\n");
		return -1;
	}
	st->sources = sources;
	st->timeline = timeline;
	st->summary = summary;
	st->lost = lost;
	st->tep = tracecmd_get_tep(handle);
	st->interval_ns = interval_ns;
	tracecmd_iterate_events(handle, NULL, 0, on_record, st);
	/* The timeline covers the whole trace, not just up to the last
	 * event that feeds a column. */
	if (!st->failed && st->started &&
	    timeline_row(timeline, (size_t)((summary->last_ts - st->t0) / interval_ns)) == NULL)
		st->failed = true;
	bool failed = st->failed;
	free(st);
	if (failed) {
		fprintf(stderr, "trace-timeline: out of memory\n");
		return -1;
	}
	return 0;
}
