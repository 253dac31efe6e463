/* Rendering comparison tables as text, Markdown, wide CSV or long CSV. */
#ifndef REPORT_H
#define REPORT_H

#include <stdio.h>

#include "compare.h"

enum report_format { REPORT_TEXT, REPORT_MARKDOWN, REPORT_HTML, REPORT_CSV, REPORT_CSV_LONG };

/* Returns 0, or -1 for an unknown name. */
int report_format_parse(const char *name, enum report_format *format);

/* first is nonzero for the first table of the output (CSV headers). */
void report_write(FILE *out, enum report_format format,
		  const struct comparison *c, int first);

/* After the tables: the traced runs that lost more than TRACE_LOSS_LIMIT
 * of their trace events (a note in text, Markdown and HTML; nothing in
 * CSV).  Returns how many. */
size_t report_trace_losses(FILE *out, enum report_format format, const struct run_set *runs);

/* After the tables: the runs in which the framework fell back to lru
 * (policy_stats.fallbacks > 0 over the timed phase, or, for a fallback
 * during the setup, policy_active_end not the policy asked for and no
 * --switch-at), with the policy they ended under (a note in text, Markdown and HTML; a warning line on stderr
 * a run).  Returns how many. */
size_t report_fallbacks(FILE *out, enum report_format format, const struct run_set *runs);

/* After the tables: the cells (row and column) holding runs that ran
 * beside other lab guests (concurrent_guests > 0), whose wall times shared
 * the host's CPUs: how many of the cell's runs, and beside how many
 * guests at most (a note in text, Markdown and HTML; one warning line on
 * stderr in every format).  Returns how many runs, or -1 when out of
 * memory. */
long report_concurrent(FILE *out, enum report_format format, const struct run_set *runs,
		       const struct grouping *g);

#endif
