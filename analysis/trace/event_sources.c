#define _POSIX_C_SOURCE 200809L
#include "event_sources.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define LAB_SYSTEM "page_replace"

const char *const base_column_names[BASE_COLUMNS] = {
	"scanned_anon", "scanned_file", "taken_anon", "taken_file",
	"reclaimed_anon", "reclaimed_file", "activated_anon", "activated_file",
	"remembered_anon", "remembered_file", "refaulted_anon", "refaulted_file",
	"swapin", "swapout", "file_writes", "deactivated_anon", "deactivated_file",
	"kswapd_wakes", "direct_reclaims", "direct_reclaim_ms", "throttled",
	"lost_events", "lost_gaps", "switches", "fallbacks",
};

/* Lab events with a fixed meaning; every other page_replace event is
 * taken as policy state and becomes gauge columns. */
static const char *const lab_counted_events[] = {
	"page_replace_candidates", "page_replace_activate",
	"page_replace_remember", "page_replace_forget",
	"page_replace_switch", "page_replace_fallback",
	/* per-batch counts (the same as the events above), not state */
	"page_replace_batch",
};

static void note(bool notes, const char *fmt, const char *a, const char *b)
{
	if (notes) {
		fputs("trace-timeline: note: ", stderr);
		fprintf(stderr, fmt, a, b);
		fputc('\n', stderr);
	}
}

/* Registers event sys:name as a source of the given kind if its format
 * is in the trace and has every named field.  Returns NULL otherwise. */
static struct event_source *add_source(struct event_sources *s, struct tep_handle *tep,
				       bool notes, enum source_kind kind,
				       const char *sys, const char *name,
				       const char *const fields[])
{
	struct tep_event *event = tep_find_event_by_name(tep, sys, name);

	if (event == NULL)
		return NULL;
	struct event_source *src = &s->sources[s->nsources];
	memset(src, 0, sizeof(*src));
	src->kind = kind;
	src->event = event;
	for (int i = 0; fields[i] != NULL; i++) {
		src->field[i] = tep_find_field(event, fields[i]);
		if (src->field[i] == NULL) {
			note(notes, "%s has no field %s; event ignored", name, fields[i]);
			return NULL;
		}
	}
	s->nsources++;
	return src;
}

static void set_available(struct event_sources *s, enum base_column a, enum base_column b)
{
	s->column_available[a] = true;
	s->column_available[b] = true;
}

/* Event sys:name, if the trace has it, adds one to column per event;
 * without it the column is NA. */
static void add_counter(struct event_sources *s, struct tep_handle *tep, bool notes,
			enum base_column column, const char *sys, const char *name)
{
	static const char *const none[] = { NULL };
	struct event_source *src = add_source(s, tep, notes, SRC_COUNT, sys, name, none);
	char event[128];

	if (src != NULL) {
		src->count_column = column;
		s->column_available[column] = true;
		return;
	}
	snprintf(event, sizeof(event), "%s:%s", sys, name);
	note(notes, "no %s in trace: %s is NA", event, base_column_names[column]);
}

/* Finds the __print_symbolic() entry of field "reason" named refault. */
static bool symbolic_refault(struct tep_print_arg *arg, unsigned long long *value)
{
	for (; arg != NULL; arg = arg->next) {
		switch (arg->type) {
		case TEP_PRINT_SYMBOL: {
			struct tep_print_arg *f = arg->symbol.field;
			if (f == NULL || f->type != TEP_PRINT_FIELD ||
			    strcmp(f->field.name, "reason") != 0)
				break;
			for (struct tep_print_flag_sym *sym = arg->symbol.symbols; sym; sym = sym->next) {
				char *end;
				unsigned long long v = strtoull(sym->value, &end, 0);
				if (strcasecmp(sym->str, "refault") == 0 && *end == '\0' &&
				    end != sym->value) {
					*value = v;
					return true;
				}
			}
			break;
		}
		case TEP_PRINT_OP:
			if (symbolic_refault(arg->op.left, value) ||
			    symbolic_refault(arg->op.right, value))
				return true;
			break;
		case TEP_PRINT_TYPE:
			if (symbolic_refault(arg->typecast.item, value))
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}

/* Fields that say which lruvec and list a per-type state is about. */
static bool is_identity_field(const char *name)
{
	return strcmp(name, "nid") == 0 || strcmp(name, "memcg_id") == 0 ||
	       strcmp(name, "file") == 0;
}

static int add_policy_state(struct event_sources *s, struct tep_handle *tep)
{
	struct tep_event **events = tep_list_events(tep, TEP_EVENT_SORT_ID);

	for (int i = 0; events != NULL && events[i] != NULL; i++) {
		struct tep_event *ev = events[i];
		bool counted = false;

		if (strcmp(ev->system, LAB_SYSTEM) != 0)
			continue;
		for (size_t k = 0; k < sizeof(lab_counted_events) / sizeof(*lab_counted_events); k++)
			counted |= strcmp(ev->name, lab_counted_events[k]) == 0;
		if (counted)
			continue;
		struct tep_format_field **fields = tep_event_fields(ev);
		struct tep_format_field *type_field = tep_find_field(ev, "file");
		int n = 0;
		for (int f = 0; fields != NULL && fields[f] != NULL; f++) {
			if (fields[f]->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING |
						TEP_FIELD_IS_DYNAMIC))
				continue;
			if (type_field != NULL && is_identity_field(fields[f]->name))
				continue;
			fields[n++] = fields[f];
		}
		if (n == 0) {
			free(fields);
			continue;
		}
		int ncols = type_field != NULL ? 2 * n : n;
		char **names = realloc(s->column_names, (size_t)(s->ncolumns + ncols) * sizeof(*names));
		bool *avail = realloc(s->column_available, (size_t)(s->ncolumns + ncols) * sizeof(bool));
		bool *gauge = realloc(s->column_is_gauge, (size_t)(s->ncolumns + ncols) * sizeof(bool));
		if (names) s->column_names = names;
		if (avail) s->column_available = avail;
		if (gauge) s->column_is_gauge = gauge;
		if (!names || !avail || !gauge) {
			free(fields);
			return -1;
		}
		struct event_source *src = &s->sources[s->nsources++];
		memset(src, 0, sizeof(*src));
		src->kind = SRC_POLICY_STATE;
		src->event = ev;
		src->first_column = s->ncolumns;
		src->nfields_state = n;
		src->state_fields = fields;
		src->type_field = type_field;
		for (int c = 0; c < ncols; c++) {
			const char *field = fields[c % n]->name;
			const char *type = type_field == NULL ? "" : c < n ? ".anon" : ".file";
			size_t len = strlen(ev->name) + strlen(field) + strlen(type) + 2;
			char *col = malloc(len);
			if (col == NULL)
				return -1;
			snprintf(col, len, "%s.%s%s", ev->name, field, type);
			s->column_names[s->ncolumns] = col;
			s->column_available[s->ncolumns] = true;
			s->column_is_gauge[s->ncolumns] = true;
			s->ncolumns++;
		}
	}
	return 0;
}

static void resolve_batches(struct event_sources *s, struct tep_handle *tep, bool notes)
{
	struct event_source *src = add_source(s, tep, notes, SRC_CANDIDATES, LAB_SYSTEM,
		"page_replace_candidates",
		(const char *const[]){ "file", "nr_scanned", "nr_taken", NULL });
	if (src == NULL)
		src = add_source(s, tep, notes, SRC_LRU_ISOLATE, "vmscan", "mm_vmscan_lru_isolate",
			(const char *const[]){ "lru", "nr_scanned", "nr_taken", NULL });
	if (src != NULL) {
		set_available(s, COL_SCANNED_ANON, COL_SCANNED_FILE);
		set_available(s, COL_TAKEN_ANON, COL_TAKEN_FILE);
		s->batch_source = src;
	} else {
		note(notes, "no %s or %s in trace: scanned_*, taken_* are NA",
		     LAB_SYSTEM ":page_replace_candidates", "vmscan:mm_vmscan_lru_isolate");
	}
}

/* page_replace_batch: what the per-folio notes counted, once per reclaim
 * batch.  Its counts are in pages and belong to the CPU's next batch,
 * so an interval shows them up to one batch late, and what was noted
 * after the last batch of the trace is not in it. */
static struct event_source *resolve_batch_counts(struct event_sources *s, struct tep_handle *tep,
						 bool notes)
{
	struct event_source *src = add_source(s, tep, notes, SRC_BATCH_COUNTS, LAB_SYSTEM,
		"page_replace_batch",
		(const char *const[]){ "activated_anon", "activated_file", "remembered_anon",
				       "remembered_file", "refaulted_anon", "refaulted_file",
				       NULL });

	if (src != NULL) {
		set_available(s, COL_ACTIVATED_ANON, COL_ACTIVATED_FILE);
		set_available(s, COL_REMEMBERED_ANON, COL_REMEMBERED_FILE);
		set_available(s, COL_REFAULTED_ANON, COL_REFAULTED_FILE);
	}
	return src;
}

static void resolve_reclaim(struct event_sources *s, struct tep_handle *tep, bool notes,
			    bool batch_counts)
{
	/* to >= from is an activation; shrink_active_list()'s 1 -> 0 is a
	 * deactivation, counted from mm_vmscan_lru_shrink_active. */
	struct event_source *activate = batch_counts ? NULL :
		add_source(s, tep, notes, SRC_ACTIVATE, LAB_SYSTEM, "page_replace_activate",
			   (const char *const[]){ "file", "from", "to", NULL });
	struct event_source *inactive = add_source(s, tep, notes, SRC_SHRINK_INACTIVE, "vmscan",
		"mm_vmscan_lru_shrink_inactive",
		(const char *const[]){ "reclaim_flags", "nr_reclaimed", "nr_activate0",
				       "nr_activate1", NULL });
	if (inactive != NULL) {
		set_available(s, COL_RECLAIMED_ANON, COL_RECLAIMED_FILE);
		if (activate != NULL || batch_counts)	/* counted per page by the lab */
			inactive->field[2] = inactive->field[3] = NULL;
	} else {
		note(notes, "no %s in trace: %s are NA", "vmscan:mm_vmscan_lru_shrink_inactive",
		     "reclaimed_*");
	}
	if (activate != NULL || inactive != NULL)
		set_available(s, COL_ACTIVATED_ANON, COL_ACTIVATED_FILE);
	else if (!batch_counts)
		note(notes, "no %s or shrink_inactive in trace: %s are NA",
		     LAB_SYSTEM ":page_replace_activate", "activated_*");

	if (add_source(s, tep, notes, SRC_SHRINK_ACTIVE, "vmscan", "mm_vmscan_lru_shrink_active",
		       (const char *const[]){ "reclaim_flags", "nr_deactivated", NULL }))
		set_available(s, COL_DEACTIVATED_ANON, COL_DEACTIVATED_FILE);
	else
		note(notes, "no %s in trace: %s are NA", "vmscan:mm_vmscan_lru_shrink_active",
		     "deactivated_*");

	if (add_source(s, tep, notes, SRC_WRITE_FOLIO, "vmscan", "mm_vmscan_write_folio",
		       (const char *const[]){ "reclaim_flags", NULL }))
		set_available(s, COL_SWAPOUT, COL_FILE_WRITES);
	else
		note(notes, "no %s in trace: %s are NA", "vmscan:mm_vmscan_write_folio",
		     "swapout, file_writes");
	note(notes, "%s%s", "6.1 has no swap-in tracepoint: swapin is NA", "");
}

static void resolve_nonresident(struct event_sources *s, struct tep_handle *tep, bool notes)
{
	/* An evicted page's identity says swap=1 for anon, 0 for a file. */
	if (add_source(s, tep, notes, SRC_REMEMBER, LAB_SYSTEM, "page_replace_remember",
		       (const char *const[]){ "swap", NULL }))
		set_available(s, COL_REMEMBERED_ANON, COL_REMEMBERED_FILE);
	else
		note(notes, "no %s in trace: %s are NA", LAB_SYSTEM ":page_replace_remember",
		     "remembered_*");

	struct event_source *forget = add_source(s, tep, notes, SRC_FORGET, LAB_SYSTEM,
		"page_replace_forget", (const char *const[]){ "swap", "reason", NULL });
	if (forget == NULL) {
		note(notes, "no %s in trace: %s are NA", LAB_SYSTEM ":page_replace_forget",
		     "refaulted_*");
		return;
	}
	if (!symbolic_refault(forget->event->print_fmt.args, &forget->refault_reason)) {
		note(notes, "%s: its print format names no reason \"refault\": %s are NA",
		     "page_replace_forget", "refaulted_*");
		s->nsources--;
		return;
	}
	set_available(s, COL_REFAULTED_ANON, COL_REFAULTED_FILE);
}

static void resolve_reclaim_entry(struct event_sources *s, struct tep_handle *tep, bool notes)
{
	static const char *const none[] = { NULL };

	add_counter(s, tep, notes, COL_KSWAPD_WAKES, "vmscan", "mm_vmscan_kswapd_wake");
	bool begin = add_source(s, tep, notes, SRC_DIRECT_BEGIN, "vmscan",
				"mm_vmscan_direct_reclaim_begin", none) != NULL;
	bool end = add_source(s, tep, notes, SRC_DIRECT_END, "vmscan",
			      "mm_vmscan_direct_reclaim_end", none) != NULL;
	s->column_available[COL_DIRECT_RECLAIMS] = begin;
	s->column_available[COL_DIRECT_RECLAIM_MS] = begin && end;
	if (!(begin && end))
		note(notes, "no %s in trace: %s", "vmscan:mm_vmscan_direct_reclaim_begin/end",
		     begin ? "direct_reclaim_ms is NA" : "direct_reclaims, direct_reclaim_ms are NA");
	add_counter(s, tep, notes, COL_THROTTLED, "vmscan", "mm_vmscan_throttled");
}

/* Run-time policy switches and the fallbacks among them (lab kernels). */
static void resolve_switches(struct event_sources *s, struct tep_handle *tep, bool notes)
{
	add_counter(s, tep, notes, COL_SWITCHES, LAB_SYSTEM, "page_replace_switch");
	add_counter(s, tep, notes, COL_FALLBACKS, LAB_SYSTEM, "page_replace_fallback");
}

static int build_id_index(struct event_sources *s)
{
	s->max_id = -1;
	for (int i = 0; i < s->nsources; i++)
		if (s->sources[i].event->id > s->max_id)
			s->max_id = s->sources[i].event->id;
	s->by_id = calloc((size_t)(s->max_id + 2), sizeof(*s->by_id));
	if (s->by_id == NULL)
		return -1;
	for (int i = 0; i < s->nsources; i++)
		s->by_id[s->sources[i].event->id] = &s->sources[i];
	return 0;
}

int event_sources_resolve(struct event_sources *s, struct tep_handle *tep, bool notes)
{
	memset(s, 0, sizeof(*s));
	int nevents = tep_get_events_count(tep);

	s->ncolumns = BASE_COLUMNS;
	s->sources = calloc((size_t)SOURCE_KINDS + (size_t)nevents, sizeof(*s->sources));
	s->column_names = calloc(BASE_COLUMNS, sizeof(*s->column_names));
	s->column_available = calloc(BASE_COLUMNS, sizeof(bool));
	s->column_is_gauge = calloc(BASE_COLUMNS, sizeof(bool));
	if (!s->sources || !s->column_names || !s->column_available || !s->column_is_gauge)
		goto fail;
	for (int c = 0; c < BASE_COLUMNS; c++)
		if ((s->column_names[c] = strdup(base_column_names[c])) == NULL)
			goto fail;
	/* The ring buffer flags lost events in every trace (see lost.h). */
	set_available(s, COL_LOST_EVENTS, COL_LOST_GAPS);
	resolve_batches(s, tep, notes);
	bool batch_counts = resolve_batch_counts(s, tep, notes) != NULL;
	resolve_reclaim(s, tep, notes, batch_counts);
	if (!batch_counts)
		resolve_nonresident(s, tep, notes);
	resolve_reclaim_entry(s, tep, notes);
	resolve_switches(s, tep, notes);
	if (add_policy_state(s, tep) != 0 || build_id_index(s) != 0)
		goto fail;
	return 0;
fail:
	event_sources_free(s);
	return -1;
}

void event_sources_free(struct event_sources *s)
{
	if (s->column_names != NULL)
		for (int c = 0; c < s->ncolumns; c++)
			free(s->column_names[c]);
	for (int i = 0; s->sources != NULL && i < s->nsources; i++)
		free(s->sources[i].state_fields);
	free(s->column_names);
	free(s->column_available);
	free(s->column_is_gauge);
	free(s->sources);
	free(s->by_id);
	memset(s, 0, sizeof(*s));
}
