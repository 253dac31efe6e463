/* Which trace events feed which timeline column, resolved against the
 * event formats stored in one trace.dat.  An event whose format is not
 * in the file was not recorded: its columns are unavailable (NA), never
 * zero.  Where a lab page_replace event and a 6.1 vmscan event measure
 * the same thing, the lab event wins so nothing is counted twice; where
 * page_replace_batch was recorded, its per-batch counts of activated,
 * remembered and refaulted pages stand for the per-folio events. */
#ifndef EVENT_SOURCES_H
#define EVENT_SOURCES_H

#include <stdbool.h>
#include <event-parse.h>

enum base_column {
	COL_SCANNED_ANON, COL_SCANNED_FILE,
	COL_TAKEN_ANON, COL_TAKEN_FILE,
	COL_RECLAIMED_ANON, COL_RECLAIMED_FILE,
	COL_ACTIVATED_ANON, COL_ACTIVATED_FILE,
	COL_REMEMBERED_ANON, COL_REMEMBERED_FILE,
	COL_REFAULTED_ANON, COL_REFAULTED_FILE,
	COL_SWAPIN, COL_SWAPOUT, COL_FILE_WRITES,
	COL_DEACTIVATED_ANON, COL_DEACTIVATED_FILE,
	COL_KSWAPD_WAKES, COL_DIRECT_RECLAIMS, COL_DIRECT_RECLAIM_MS,
	COL_THROTTLED,
	COL_LOST_EVENTS, COL_LOST_GAPS,
	COL_SWITCHES, COL_FALLBACKS,
	BASE_COLUMNS
};

enum source_kind {
	SRC_LRU_ISOLATE, SRC_CANDIDATES, SRC_SHRINK_INACTIVE, SRC_SHRINK_ACTIVE,
	SRC_ACTIVATE, SRC_REMEMBER, SRC_FORGET, SRC_WRITE_FOLIO,
	SRC_DIRECT_BEGIN, SRC_DIRECT_END,
	SRC_POLICY_STATE, SRC_BATCH_COUNTS,
	SRC_COUNT,	/* one in count_column per event: kswapd wakes, throttles, switches, fallbacks */
	SOURCE_KINDS
};

#define SOURCE_MAX_FIELDS 6	/* page_replace_batch reads six */

struct event_source {
	enum source_kind kind;
	struct tep_event *event;
	/* Fields in the order the kind's handler reads them. */
	struct tep_format_field *field[SOURCE_MAX_FIELDS];
	/* page_replace_forget: value of reason that means "refault". */
	unsigned long long refault_reason;
	/* SRC_COUNT: the column each event adds one to. */
	enum base_column count_column;
	/* Policy-state events: one gauge column per numeric field; with a
	 * "file" field (a state per LRU type), two: FIELD.anon, FIELD.file,
	 * and the identity fields nid, memcg_id and file are left out. */
	int first_column;
	int nfields_state;
	struct tep_format_field **state_fields;
	struct tep_format_field *type_field;	/* "file", or NULL */
};

struct event_sources {
	int ncolumns;			/* BASE_COLUMNS + policy-state gauges */
	char **column_names;
	bool *column_available;
	bool *column_is_gauge;		/* last value in the interval, not a sum */
	struct event_source *sources;
	int nsources;
	struct event_source **by_id;	/* indexed by event id, NULL if unused */
	int max_id;
	struct event_source *batch_source;	/* candidates or lru_isolate */
};

extern const char *const base_column_names[BASE_COLUMNS];

/* Returns 0, or -1 on allocation failure.  Notes about unavailable
 * columns go to stderr when notes is true. */
int event_sources_resolve(struct event_sources *s, struct tep_handle *tep, bool notes);
void event_sources_free(struct event_sources *s);

static inline struct event_source *event_sources_lookup(const struct event_sources *s, int id)
{
	return id >= 0 && id <= s->max_id ? s->by_id[id] : NULL;
}

#endif
