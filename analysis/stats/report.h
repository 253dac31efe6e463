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

#endif
