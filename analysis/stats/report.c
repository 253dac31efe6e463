#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CELL_MAX 96

int report_format_parse(const char *name, enum report_format *format)
{
	static const struct { const char *name; enum report_format format; } names[] = {
		{ "text", REPORT_TEXT }, { "markdown", REPORT_MARKDOWN },
		{ "csv", REPORT_CSV }, { "csv-long", REPORT_CSV_LONG },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i].name) == 0) {
			*format = names[i].format;
			return 0;
		}
	return -1;
}

/* Enough digits for counts and for seconds without scientific noise. */
static void format_number(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "n/a");
	else if (fabs(v) >= 100.0)
		snprintf(buf, len, "%.0f", v);
	else if (fabs(v) >= 1.0)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

static int significant(const struct cell *cell)
{
	return isfinite(cell->welch.p) && cell->welch.p < SIGNIFICANCE_LEVEL;
}

static void cell_text(char *buf, size_t len, const struct comparison *c,
		      size_t row, size_t col, int markdown)
{
	const struct cell *cell = comparison_cell(c, row, col);
	char mean[32], ci[32];

	if (cell->count == 0) {
		snprintf(buf, len, "-");
		return;
	}
	format_number(mean, sizeof(mean), cell->summary.mean);
	format_number(ci, sizeof(ci), cell->summary.ci95);
	int used = snprintf(buf, len, "%s ± %s (n=%zu)", mean, ci, cell->count);
	if ((int)col == c->baseline_col || c->baseline_col < 0 || used < 0 || (size_t)used >= len)
		return;
	if (isfinite(cell->ratio))
		snprintf(buf + used, len - (size_t)used, " %.3f%s", cell->ratio,
			 significant(cell) ? (markdown ? "\\*" : "*") : "");
	else
		snprintf(buf + used, len - (size_t)used, " n/a");
}

static void gmean_text(char *buf, size_t len, const struct comparison *c, size_t col)
{
	if (c->gmean_rows[col] == 0)
		snprintf(buf, len, "n/a");
	else if (c->gmean_rows[col] == c->nrows)
		snprintf(buf, len, "%.3f", c->gmean[col]);
	else
		snprintf(buf, len, "%.3f (%zu of %zu)", c->gmean[col],
			 c->gmean_rows[col], c->nrows);
}

static size_t display_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)	/* count UTF-8 lead bytes */
			w++;
	return w;
}

static void pad(FILE *out, const char *s, size_t width)
{
	fputs(s, out);
	for (size_t w = display_width(s); w < width; w++)
		fputc(' ', out);
}

static void caption(FILE *out, const struct comparison *c, int markdown)
{
	fprintf(out, "%s%s: mean ± 95%% CI (Student t), n runs", markdown ? "**" : "",
		c->metric);
	if (c->baseline_col >= 0)
		fprintf(out, "; ratio to %s; %s p<%.2f (Welch's t-test)",
			c->baseline, markdown ? "\\*" : "*", SIGNIFICANCE_LEVEL);
	else
		fprintf(out, "; no %s runs, so no ratios or tests", c->baseline);
	fprintf(out, "%s\n", markdown ? "**" : "");
}

static void write_text(FILE *out, const struct comparison *c, int first, int markdown)
{
	size_t ncols = c->ncols + 1;
	size_t nrows = c->nrows + 2;	/* header + rows + gmean */
	char (*text)[CELL_MAX] = calloc(ncols * nrows, CELL_MAX);
	size_t *width = calloc(ncols, sizeof(*width));

	if (text == NULL || width == NULL) {
		free(text);
		free(width);
		fprintf(out, "(out of memory)\n");
		return;
	}
	snprintf(text[0], CELL_MAX, "workload");
	for (size_t p = 0; p < c->ncols; p++)
		snprintf(text[p + 1], CELL_MAX, "%s", c->policies[p]);
	for (size_t r = 0; r < c->nrows; r++) {
		snprintf(text[(r + 1) * ncols], CELL_MAX, "%s", c->rows[r]);
		for (size_t p = 0; p < c->ncols; p++)
			cell_text(text[(r + 1) * ncols + p + 1], CELL_MAX, c, r, p, markdown);
	}
	snprintf(text[(nrows - 1) * ncols], CELL_MAX, "gmean ratio");
	for (size_t p = 0; p < c->ncols; p++)
		gmean_text(text[(nrows - 1) * ncols + p + 1], CELL_MAX, c, p);
	for (size_t i = 0; i < ncols * nrows; i++)
		if (display_width(text[i]) > width[i % ncols])
			width[i % ncols] = display_width(text[i]);

	if (!first)
		fputc('\n', out);
	caption(out, c, markdown);
	if (markdown)
		fputc('\n', out);
	for (size_t r = 0; r < nrows; r++) {
		for (size_t p = 0; p < ncols; p++) {
			fputs(markdown ? "| " : (p ? "  " : ""), out);
			if (markdown || p + 1 < ncols)
				pad(out, text[r * ncols + p], width[p]);
			else
				fputs(text[r * ncols + p], out);
			if (markdown)
				fputc(' ', out);
		}
		fputs(markdown ? "|\n" : "\n", out);
		if (markdown && r == 0) {
			for (size_t p = 0; p < ncols; p++) {
				fputs(p ? "|" : "|:", out);
				for (size_t w = 0; w < width[p] + 1; w++)
					fputc('-', out);
				if (p)
					fputc(':', out);
			}
			fputs("|\n", out);
		}
	}
	free(text);
	free(width);
}

static void csv_number(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, ",%.10g", v);
	else
		fputs(",NA", out);
}

static void write_csv_wide(FILE *out, const struct comparison *c, int first)
{
	if (first) {
		fputs("metric,workload", out);
		for (size_t p = 0; p < c->ncols; p++) {
			const char *n = c->policies[p];
			fprintf(out, ",%s_n,%s_mean,%s_sd,%s_ci95", n, n, n, n);
			if ((int)p != c->baseline_col)
				fprintf(out, ",%s_ratio,%s_p,%s_significant", n, n, n);
		}
		fputc('\n', out);
	}
	for (size_t r = 0; r < c->nrows; r++) {
		fprintf(out, "%s,%s", c->metric, c->rows[r]);
		for (size_t p = 0; p < c->ncols; p++) {
			const struct cell *cell = comparison_cell(c, r, p);
			fprintf(out, ",%zu", cell->count);
			csv_number(out, cell->summary.mean);
			csv_number(out, cell->summary.sd);
			csv_number(out, cell->summary.ci95);
			if ((int)p != c->baseline_col) {
				csv_number(out, cell->ratio);
				csv_number(out, cell->welch.p);
				fprintf(out, ",%d", significant(cell));
			}
		}
		fputc('\n', out);
	}
	fprintf(out, "%s,gmean", c->metric);
	for (size_t p = 0; p < c->ncols; p++) {
		fputs(",NA,NA,NA,NA", out);
		if ((int)p != c->baseline_col) {
			csv_number(out, c->gmean[p]);
			fputs(",NA,NA", out);
		}
	}
	fputc('\n', out);
}

static void write_csv_long(FILE *out, const struct comparison *c, int first)
{
	if (first)
		fputs("metric,workload,workload_idx,policy,policy_idx,n,mean,sd,ci95,"
		      "ratio,ratio_lo,ratio_hi,welch_t,welch_df,p_value,significant\n", out);
	for (size_t r = 0; r < c->nrows; r++) {
		for (size_t p = 0; p < c->ncols; p++) {
			const struct cell *cell = comparison_cell(c, r, p);
			if (cell->count == 0)
				continue;
			fprintf(out, "%s,%s,%zu,%s,%zu,%zu", c->metric, c->rows[r], r,
				c->policies[p], p, cell->count);
			csv_number(out, cell->summary.mean);
			csv_number(out, cell->summary.sd);
			csv_number(out, cell->summary.ci95);
			csv_number(out, cell->ratio);
			csv_number(out, cell->ratio_lo);
			csv_number(out, cell->ratio_hi);
			csv_number(out, cell->welch.t);
			csv_number(out, cell->welch.df);
			csv_number(out, cell->welch.p);
			fprintf(out, ",%d\n", significant(cell));
		}
	}
	for (size_t p = 0; p < c->ncols; p++) {
		if (c->gmean_rows[p] == 0)
			continue;
		fprintf(out, "%s,gmean,%zu,%s,%zu,NA,NA,NA,NA", c->metric, c->nrows,
			c->policies[p], p);
		csv_number(out, c->gmean[p]);
		fputs(",NA,NA,NA,NA,NA,0\n", out);
	}
}

void report_write(FILE *out, enum report_format format,
		  const struct comparison *c, int first)
{
	switch (format) {
	case REPORT_TEXT:
		write_text(out, c, first, 0);
		break;
	case REPORT_MARKDOWN:
		write_text(out, c, first, 1);
		break;
	case REPORT_CSV:
		write_csv_wide(out, c, first);
		break;
	case REPORT_CSV_LONG:
		write_csv_long(out, c, first);
		break;
	}
}
