#define _POSIX_C_SOURCE 200809L
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static ssize_t index_of(char **list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return (ssize_t)i;
	return -1;
}

static int has_token(const struct run *r, const char *token)
{
	for (size_t i = 0; i < r->nsetup; i++)
		if (strcmp(r->setup[i], token) == 0)
			return 1;
	return 0;
}

/* Whether every run of the workload shares this setup token. */
static int common_token(const struct run_set *runs, const char *workload, const char *token)
{
	for (size_t i = 0; i < runs->count; i++)
		if (strcmp(runs->runs[i].workload, workload) == 0 && !has_token(&runs->runs[i], token))
			return 0;
	return 1;
}

/* The workload name plus the setup tokens that differ between its runs:
 * a workload run with several setups gets one row per setup. */
static char *row_label(const struct run_set *runs, const struct run *r)
{
	size_t len = strlen(r->workload) + 1;

	for (size_t i = 0; i < r->nsetup; i++)
		len += strlen(r->setup[i]) + 1;
	char *label = malloc(len);
	if (label == NULL)
		return NULL;
	strcpy(label, r->workload);
	for (size_t i = 0; i < r->nsetup; i++) {
		if (common_token(runs, r->workload, r->setup[i]))
			continue;
		strcat(label, " ");
		strcat(label, r->setup[i]);
	}
	return label;
}

static int add_unique(char ***list, size_t *n, const char *s)
{
	if (index_of(*list, *n, s) >= 0)
		return 0;
	char **grown = realloc(*list, (*n + 1) * sizeof(**list));
	if (grown == NULL)
		return -1;
	*list = grown;
	if ((grown[*n] = strdup(s)) == NULL)
		return -1;
	(*n)++;
	return 0;
}

static int cell_add(struct cell *cell, double v)
{
	if (cell->count == cell->capacity) {
		size_t cap = cell->capacity ? cell->capacity * 2 : 8;
		double *grown = realloc(cell->values, cap * sizeof(*grown));
		if (grown == NULL)
			return -1;
		cell->values = grown;
		cell->capacity = cap;
	}
	cell->values[cell->count++] = v;
	return 0;
}

static void order_policies(struct comparison *c)
{
	if (c->ncols > 1)
		qsort(c->policies, c->ncols, sizeof(char *), compare_strings);
	ssize_t b = index_of(c->policies, c->ncols, c->baseline);
	c->baseline_col = b >= 0 ? 0 : -1;
	if (b > 0) {
		char *base = c->policies[b];
		memmove(&c->policies[1], &c->policies[0], (size_t)b * sizeof(char *));
		c->policies[0] = base;
	}
}

static void compute_cells(struct comparison *c)
{
	for (size_t r = 0; r < c->nrows; r++) {
		for (size_t p = 0; p < c->ncols; p++) {
			struct cell *cell = comparison_cell(c, r, p);
			cell->summary = sample_summarize(cell->values, cell->count);
			cell->welch = (struct welch_result){ NAN, NAN, NAN };
			cell->ratio = cell->ratio_lo = cell->ratio_hi = NAN;
		}
		if (c->baseline_col < 0)
			continue;
		const struct cell *base = comparison_cell(c, r, (size_t)c->baseline_col);
		if (base->count == 0)
			continue;
		for (size_t p = 0; p < c->ncols; p++) {
			struct cell *cell = comparison_cell(c, r, p);
			if (cell->count == 0)
				continue;
			if ((int)p != c->baseline_col)
				cell->welch = welch_test(&cell->summary, &base->summary);
			if (base->summary.mean == 0.0)
				continue;
			cell->ratio = cell->summary.mean / base->summary.mean;
			cell->ratio_lo = (cell->summary.mean - cell->summary.ci95) / base->summary.mean;
			cell->ratio_hi = (cell->summary.mean + cell->summary.ci95) / base->summary.mean;
		}
	}
}

static void compute_gmeans(struct comparison *c)
{
	for (size_t p = 0; p < c->ncols; p++) {
		double log_sum = 0.0;
		size_t used = 0;

		for (size_t r = 0; r < c->nrows; r++) {
			double ratio = comparison_cell(c, r, p)->ratio;
			if (isfinite(ratio) && ratio > 0.0) {
				log_sum += log(ratio);
				used++;
			}
		}
		c->gmean[p] = used ? exp(log_sum / (double)used) : NAN;
		c->gmean_rows[p] = used;
	}
}

int comparison_build(struct comparison *c, const struct run_set *runs,
		     const struct metric *metric, const char *baseline)
{
	memset(c, 0, sizeof(*c));
	c->metric = metric->label;
	c->baseline = baseline;
	char **labels = calloc(runs->count ? runs->count : 1, sizeof(char *));
	if (labels == NULL)
		goto oom;
	for (size_t i = 0; i < runs->count; i++) {
		labels[i] = row_label(runs, &runs->runs[i]);
		if (labels[i] == NULL || add_unique(&c->rows, &c->nrows, labels[i]) ||
		    add_unique(&c->policies, &c->ncols, runs->runs[i].policy))
			goto oom;
	}
	if (c->nrows > 1)
		qsort(c->rows, c->nrows, sizeof(char *), compare_strings);
	order_policies(c);
	c->cells = calloc(c->nrows * c->ncols + 1, sizeof(*c->cells));
	c->gmean = calloc(c->ncols + 1, sizeof(*c->gmean));
	c->gmean_rows = calloc(c->ncols + 1, sizeof(*c->gmean_rows));
	if (c->cells == NULL || c->gmean == NULL || c->gmean_rows == NULL)
		goto oom;
	for (size_t i = 0; i < runs->count; i++) {
		const struct run *run = &runs->runs[i];
		const char *missing = NULL;
		double v;

		if (metric_value(metric, run->root, &v, &missing) != 0) {
			fprintf(stderr, "labstat: note: %s has no number at %s, left out of %s\n",
				run->path, missing, metric->label);
			continue;
		}
		size_t r = (size_t)index_of(c->rows, c->nrows, labels[i]);
		size_t p = (size_t)index_of(c->policies, c->ncols, run->policy);
		if (cell_add(comparison_cell(c, r, p), v) != 0)
			goto oom;
	}
	for (size_t i = 0; i < runs->count; i++)
		free(labels[i]);
	free(labels);
	compute_cells(c);
	compute_gmeans(c);
	return 0;
oom:
	if (labels != NULL)
		for (size_t i = 0; i < runs->count; i++)
			free(labels[i]);
	free(labels);
	comparison_free(c);
	fprintf(stderr, "labstat: out of memory\n");
	return -1;
}

void comparison_free(struct comparison *c)
{
	for (size_t r = 0; r < c->nrows; r++)
		free(c->rows[r]);
	for (size_t p = 0; p < c->ncols; p++)
		free(c->policies[p]);
	if (c->cells != NULL)
		for (size_t i = 0; i < c->nrows * c->ncols; i++)
			free(c->cells[i].values);
	free(c->rows);
	free(c->policies);
	free(c->cells);
	free(c->gmean);
	free(c->gmean_rows);
	memset(c, 0, sizeof(*c));
}
