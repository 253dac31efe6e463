/* One renderer for every table labstat prints: a caption and a grid of
 * strings (row 0 the header) as aligned text, a Markdown pipe table, an
 * HTML table or CSV. */
#ifndef TABLE_H
#define TABLE_H

#include <stdio.h>

enum table_format { TABLE_TEXT, TABLE_MARKDOWN, TABLE_HTML, TABLE_CSV };

struct table {
	char *caption;
	size_t nrows, ncols;	/* nrows counts the header */
	size_t left_cols;	/* leading columns aligned left; the rest right */
	char **cells;		/* nrows * ncols, row-major */
};

/* An empty grid of nrows x ncols; returns 0, or -1 when out of memory. */
int table_init(struct table *t, size_t nrows, size_t ncols, size_t left_cols);
/* Sets a cell (or the caption with row SIZE_MAX) to a printf-formatted
 * string; returns 0, or -1 when out of memory. */
int table_set(struct table *t, size_t row, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void table_free(struct table *t);

/* first is zero when another table came before (a blank line between
 * them in text, Markdown and HTML). */
void table_write(FILE *out, enum table_format format, const struct table *t, int first);

/* text escaped for HTML (& < > "). */
void html_escaped(FILE *out, const char *text);

#endif
