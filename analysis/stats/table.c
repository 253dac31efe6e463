#define _POSIX_C_SOURCE 200809L
#include "table.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int table_init(struct table *t, size_t nrows, size_t ncols, size_t left_cols)
{
	memset(t, 0, sizeof(*t));
	t->cells = calloc(nrows * ncols + 1, sizeof(*t->cells));
	if (t->cells == NULL)
		return -1;
	t->nrows = nrows;
	t->ncols = ncols;
	t->left_cols = left_cols;
	return 0;
}

int table_set(struct table *t, size_t row, size_t col, const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	int len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0 || (text = malloc((size_t)len + 1)) == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(text, (size_t)len + 1, fmt, ap);
	va_end(ap);
	char **slot = row == SIZE_MAX ? &t->caption : &t->cells[row * t->ncols + col];
	free(*slot);
	*slot = text;
	return 0;
}

void table_free(struct table *t)
{
	if (t->cells != NULL)
		for (size_t i = 0; i < t->nrows * t->ncols; i++)
			free(t->cells[i]);
	free(t->cells);
	free(t->caption);
	memset(t, 0, sizeof(*t));
}

static const char *cell(const struct table *t, size_t r, size_t c)
{
	const char *s = t->cells[r * t->ncols + c];
	return s != NULL ? s : "";
}

void html_escaped(FILE *out, const char *text)
{
	for (; *text; text++) {
		switch (*text) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*text, out);
		}
	}
}

/* Markdown: * and | are the syntax's, so escaped. */
static size_t markdown_escaped(FILE *out, const char *text)
{
	size_t w = 0;

	for (; *text; text++) {
		if (*text == '*' || *text == '|') {
			if (out != NULL)
				fputc('\\', out);
			w++;
		}
		if (out != NULL)
			fputc(*text, out);
		if (((unsigned char)*text & 0xC0) != 0x80)	/* UTF-8 lead bytes */
			w++;
	}
	return w;
}

static size_t width_of(const char *s, int markdown)
{
	size_t w = 0;

	if (markdown)
		return markdown_escaped(NULL, s);
	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

static void write_html(FILE *out, const struct table *t)
{
	fputs("<table>\n", out);
	if (t->caption != NULL) {
		fputs("<caption>", out);
		html_escaped(out, t->caption);
		fputs("</caption>\n", out);
	}
	for (size_t r = 0; r < t->nrows; r++) {
		fputs(r == 0 ? "<thead><tr>" : "<tr>", out);
		for (size_t c = 0; c < t->ncols; c++) {
			const char *tag = r == 0 ? "th" : "td";
			fprintf(out, "<%s%s>", tag, c < t->left_cols ? " class=\"l\"" : "");
			html_escaped(out, cell(t, r, c));
			fprintf(out, "</%s>", tag);
		}
		fputs(r == 0 ? "</tr></thead>\n<tbody>\n" : "</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

static void write_csv(FILE *out, const struct table *t)
{
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++)
			fprintf(out, "%s%s", cell(t, r, c), c + 1 < t->ncols ? "," : "\n");
}

static void write_aligned(FILE *out, const struct table *t, int markdown)
{
	size_t *width = calloc(t->ncols + 1, sizeof(*width));

	if (width == NULL) {
		fputs("(out of memory)\n", out);
		return;
	}
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			size_t w = width_of(cell(t, r, c), markdown);
			if (w > width[c])
				width[c] = w;
		}
	if (t->caption != NULL) {
		if (markdown) {
			fputs("**", out);
			markdown_escaped(out, t->caption);
			fputs("**\n\n", out);
		} else {
			fprintf(out, "%s\n", t->caption);
		}
	}
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = cell(t, r, c);
			fputs(markdown ? "| " : (c ? "  " : ""), out);
			size_t w = markdown ? markdown_escaped(out, s) : (fputs(s, out), width_of(s, 0));
			if (markdown || c + 1 < t->ncols)
				for (; w < width[c]; w++)
					fputc(' ', out);
			if (markdown)
				fputc(' ', out);
		}
		fputs(markdown ? "|\n" : "\n", out);
		if (markdown && r == 0) {
			for (size_t c = 0; c < t->ncols; c++) {
				int left = c < t->left_cols;
				fputs(left ? "|:" : "|", out);
				for (size_t w = 0; w < width[c] + 1; w++)
					fputc('-', out);
				if (!left)
					fputc(':', out);
			}
			fputs("|\n", out);
		}
	}
	free(width);
}

void table_write(FILE *out, enum table_format format, const struct table *t, int first)
{
	if (!first && format != TABLE_CSV)
		fputc('\n', out);
	switch (format) {
	case TABLE_TEXT:
		write_aligned(out, t, 0);
		break;
	case TABLE_MARKDOWN:
		write_aligned(out, t, 1);
		break;
	case TABLE_HTML:
		write_html(out, t);
		break;
	case TABLE_CSV:
		write_csv(out, t);
		break;
	}
}
