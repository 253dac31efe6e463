#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

#define CELL_MAX 256

int report_format_parse(const char *name, enum report_format *format)
{
	static const struct { const char *name; enum report_format format; } names[] = {
		{ "text", REPORT_TEXT }, { "markdown", REPORT_MARKDOWN }, { "html", REPORT_HTML },
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
		      size_t row, size_t col)
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
			 significant(cell) ? "*" : "");
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

static void caption_text(char *text, size_t len, const struct comparison *c)
{
	int n = snprintf(text, len, "%s: mean ± 95%% CI (Student t), n runs", c->metric);

	if (n < 0 || (size_t)n >= len)
		return;
	if (c->baseline_col >= 0)
		snprintf(text + n, len - (size_t)n, "; ratio to %s; * p<%.2f (Welch's t-test)",
			 c->baseline, SIGNIFICANCE_LEVEL);
	else
		snprintf(text + n, len - (size_t)n, "; no %s runs, so no ratios or tests", c->baseline);
}

/* Rows are workloads (and the gmean ratio), columns policies. */
static void write_table(FILE *out, enum table_format format, const struct comparison *c, int first)
{
	struct table t;
	char text[CELL_MAX];
	int bad = table_init(&t, c->nrows + 2, c->ncols + 1, 1);

	caption_text(text, sizeof(text), c);
	bad = bad || table_set(&t, SIZE_MAX, 0, "%s", text) || table_set(&t, 0, 0, "workload");
	for (size_t p = 0; !bad && p < c->ncols; p++)
		bad = table_set(&t, 0, p + 1, "%s", c->policies[p]);
	for (size_t r = 0; !bad && r < c->nrows; r++) {
		bad = table_set(&t, r + 1, 0, "%s", c->rows[r]);
		for (size_t p = 0; !bad && p < c->ncols; p++) {
			cell_text(text, sizeof(text), c, r, p);
			bad = table_set(&t, r + 1, p + 1, "%s", text);
		}
	}
	bad = bad || table_set(&t, c->nrows + 1, 0, "gmean ratio");
	for (size_t p = 0; !bad && p < c->ncols; p++) {
		gmean_text(text, sizeof(text), c, p);
		bad = table_set(&t, c->nrows + 1, p + 1, "%s", text);
	}
	if (bad)
		fputs("(out of memory)\n", out);
	else
		table_write(out, format, &t, first);
	table_free(&t);
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
		write_table(out, TABLE_TEXT, c, first);
		break;
	case REPORT_MARKDOWN:
		write_table(out, TABLE_MARKDOWN, c, first);
		break;
	case REPORT_HTML:
		write_table(out, TABLE_HTML, c, first);
		break;
	case REPORT_CSV:
		write_csv_wide(out, c, first);
		break;
	case REPORT_CSV_LONG:
		write_csv_long(out, c, first);
		break;
	}
}

/* The notes after the tables (none in CSV): a heading, then one item a
 * run or cell, "WHO: WHAT" ("ROW | COLUMN: WHAT" when who2 is given). */
static void note_head(FILE *out, enum report_format format, const char *class, const char *head)
{
	if (format == REPORT_HTML)
		fprintf(out, "<p class=\"%s\">%s</p>\n<ul class=\"%s\">\n", class, head, class);
	else if (format != REPORT_CSV && format != REPORT_CSV_LONG)
		fprintf(out, "\n%s%s%s\n\n", format == REPORT_MARKDOWN ? "**" : "", head,
			format == REPORT_MARKDOWN ? "**" : "");
}

static void note_item(FILE *out, enum report_format format, const char *who, const char *who2,
		      const char *what)
{
	if (format == REPORT_HTML) {
		fputs("<li>", out);
		html_escaped(out, who);
		if (who2 != NULL) {
			fputs(" | ", out);
			html_escaped(out, who2);
		}
		fprintf(out, ": %s</li>\n", what);
	} else if (format != REPORT_CSV && format != REPORT_CSV_LONG) {
		fprintf(out, "%s%s%s%s: %s\n", format == REPORT_MARKDOWN ? "- " : "  ", who,
			who2 != NULL ? " | " : "", who2 != NULL ? who2 : "", what);
	}
}

static void note_end(FILE *out, enum report_format format, size_t items)
{
	if (items > 0 && format == REPORT_HTML)
		fputs("</ul>\n", out);
}

/* A note on single runs: flagged() says whether a run belongs in it and
 * writes what to say of it into what[]. */
struct run_note {
	const char *class;
	const char *head;
	bool (*flagged)(const struct run *r, char *what, size_t len);
};

static size_t report_runs(FILE *out, enum report_format format, const struct run_set *runs,
			  const struct run_note *note)
{
	size_t n = 0;

	for (size_t i = 0; i < runs->count; i++) {
		char what[128];

		if (!note->flagged(&runs->runs[i], what, sizeof(what)))
			continue;
		if (n++ == 0)
			note_head(out, format, note->class, note->head);
		note_item(out, format, runs->runs[i].path, NULL, what);
		fprintf(stderr, "labstat: warning: %s: %s\n", runs->runs[i].path, what);
	}
	note_end(out, format, n);
	return n;
}

static bool lost_trace_events(const struct run *r, char *what, size_t len)
{
	double share;

	if (!run_trace_loss(r, &share) || (share <= TRACE_LOSS_LIMIT && !isnan(share)))
		return false;
	if (isnan(share))
		snprintf(what, len, "lost an unknown share of its trace events (trace.dat unreadable)");
	else
		snprintf(what, len, "lost %.2f%% of its trace events", 100.0 * share);
	return true;
}

static bool fell_back(const struct run *r, char *what, size_t len)
{
	json_t *fb = json_object_get(json_object_get(r->root, "policy_stats"), "fallbacks");
	const char *end = json_string_value(json_object_get(r->root, "policy_active_end"));
	const char *policy = json_string_value(json_object_get(r->root, "policy"));
	json_t *asked = json_object_get(json_object_get(r->root, "params"), "switch_at");
	double n_fb = json_is_number(fb) ? json_number_value(fb) : 0;
	/* policy_stats counts over the timed phase: a fallback during the
	 * setup shows only as a run that ended under another policy than it
	 * asked for, with no switch asked. */
	bool moved = end != NULL && policy != NULL && strcmp(end, policy) != 0 &&
		     json_array_size(asked) == 0;

	if (n_fb <= 0 && !moved)
		return false;
	snprintf(what, len, "%.0f fallback(s)%s, ended under %s", n_fb,
		 n_fb <= 0 ? " in the timed phase" : "", end != NULL ? end : "an unknown policy");
	return true;
}

size_t report_trace_losses(FILE *out, enum report_format format, const struct run_set *runs)
{
	static const struct run_note note = {
		"trace-loss",
		"Traced runs that lost more than 0.1% of their trace events "
		"(the gaps are shaded in their timelines; vmstat counters are not affected):",
		lost_trace_events,
	};

	return report_runs(out, format, runs, &note);
}

size_t report_fallbacks(FILE *out, enum report_format format, const struct run_set *runs)
{
	static const struct run_note note = {
		"fallback",
		"Runs in which the framework fell back to lru (their counts mix two policies):",
		fell_back,
	};

	return report_runs(out, format, runs, &note);
}

static long long concurrent_guests(const struct run *r)
{
	json_t *v = json_object_get(r->root, "concurrent_guests");

	return json_is_integer(v) ? json_integer_value(v) : 0;
}

long report_concurrent(FILE *out, enum report_format format, const struct run_set *runs,
		       const struct grouping *g)
{
	char **rows, **columns;
	bool *done = calloc(runs->count + 1, sizeof(*done));
	long flagged = 0;
	size_t cells = 0;

	if (done == NULL || grouping_labels(g, runs, &rows, &columns) != 0) {
		free(done);
		return -1;
	}
	for (size_t i = 0; i < runs->count; i++) {
		size_t total = 0, beside = 0;
		long long most = 0;

		if (done[i] || concurrent_guests(&runs->runs[i]) <= 0)
			continue;
		for (size_t j = 0; j < runs->count; j++) {
			if (strcmp(rows[i], rows[j]) != 0 || strcmp(columns[i], columns[j]) != 0)
				continue;
			long long others = concurrent_guests(&runs->runs[j]);
			done[j] = true;
			total++;
			if (others > 0) {
				beside++;
				most = others > most ? others : most;
			}
		}
		flagged += (long)beside;
		if (cells++ == 0)
			note_head(out, format, "concurrent",
				  "Runs that ran beside other lab guests (concurrent_guests > 0): "
				  "their wall times shared the host's CPUs:");
		char what[128];
		snprintf(what, sizeof(what), "%zu of %zu run%s, beside up to %lld other guest%s", beside,
			 total, total == 1 ? "" : "s", most, most == 1 ? "" : "s");
		note_item(out, format, rows[i], columns[i], what);
	}
	note_end(out, format, cells);
	if (flagged > 0)
		fprintf(stderr, "labstat: warning: %ld of %zu runs ran beside other lab guests "
			"(concurrent_guests > 0): their wall times shared the host's CPUs\n",
			flagged, runs->count);
	grouping_labels_free(runs, rows, columns);
	free(done);
	return flagged;
}
