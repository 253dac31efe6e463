#define _POSIX_C_SOURCE 200809L
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

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

static bool token_used(const struct grouping *g, const struct experiment_token *t, bool column)
{
	return !g->ignore[t->param] &&
	       (experiment_param_in_column(t->param) || g->column[t->param]) == column;
}

static bool has_token(const struct run *r, const char *text)
{
	for (size_t i = 0; i < r->exp.count; i++)
		if (strcmp(r->exp.tokens[i].text, text) == 0)
			return true;
	return false;
}

static const char *flavour_of(const struct run *r)
{
	for (size_t i = 0; i < r->exp.count; i++)
		if (r->exp.tokens[i].param == PARAM_KERNEL_FLAVOUR)
			return r->exp.tokens[i].text;
	return "";
}

/* Whether every run that shares a row (same workload) or a column (same
 * policy or kernel flavour) with r also has token t. */
static bool common_token(const struct run_set *runs, const struct run *r, const char *t,
			 bool column)
{
	for (size_t i = 0; i < runs->count; i++) {
		const struct run *s = &runs->runs[i];
		bool peer = column ? strcmp(s->policy, r->policy) == 0 ||
					     strcmp(flavour_of(s), flavour_of(r)) == 0
				   : strcmp(s->workload, r->workload) == 0;
		if (peer && !has_token(s, t))
			return false;
	}
	return true;
}

/* The workload (or policy) plus the tokens that tell this run's
 * experiment apart from the others of its row (or column). */
static char *label(const struct grouping *g, const struct run_set *runs, const struct run *r,
		   bool column)
{
	const char *name = column ? r->policy : r->workload;
	size_t len = strlen(name) + 1;

	for (size_t i = 0; i < r->exp.count; i++)
		len += strlen(r->exp.tokens[i].text) + 1;
	char *text = malloc(len);
	if (text == NULL)
		return NULL;
	strcpy(text, name);
	for (size_t i = 0; i < r->exp.count; i++) {
		const struct experiment_token *t = &r->exp.tokens[i];
		if (!token_used(g, t, column) || common_token(runs, r, t->text, column))
			continue;
		strcat(text, " ");
		strcat(text, t->text);
	}
	return text;
}

int grouping_labels(const struct grouping *g, const struct run_set *runs,
		    char ***rows, char ***columns)
{
	size_t n = runs->count ? runs->count : 1;

	*rows = calloc(n, sizeof(char *));
	*columns = calloc(n, sizeof(char *));
	if (*rows == NULL || *columns == NULL)
		goto oom;
	for (size_t i = 0; i < runs->count; i++) {
		(*rows)[i] = label(g, runs, &runs->runs[i], false);
		(*columns)[i] = label(g, runs, &runs->runs[i], true);
		if ((*rows)[i] == NULL || (*columns)[i] == NULL)
			goto oom;
	}
	return 0;
oom:
	grouping_labels_free(runs, *rows, *columns);
	*rows = *columns = NULL;
	return -1;
}

void grouping_labels_free(const struct run_set *runs, char **rows, char **columns)
{
	for (size_t i = 0; i < runs->count; i++) {
		if (rows != NULL)
			free(rows[i]);
		if (columns != NULL)
			free(columns[i]);
	}
	free(rows);
	free(columns);
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
	double *values = grow_for_one_more(cell->values, cell->count, &cell->capacity,
					   sizeof(*values), 8);

	if (values == NULL)
		return -1;
	cell->values = values;
	cell->values[cell->count++] = v;
	return 0;
}

/* The baseline's column first: the baseline names a policy or one
 * column's whole label.  Returns -2 after one line when the baseline
 * policy has more than one column (it ran on several kernels). */
static int order_policies(struct comparison *c, const struct run_set *runs,
			  const struct grouping *g, char **columns)
{
	if (c->ncols > 1)
		qsort(c->policies, c->ncols, sizeof(char *), compare_strings);
	const char *first = NULL;
	const struct run *first_run = NULL;
	for (size_t i = 0; i < runs->count; i++) {
		const struct run *r = &runs->runs[i];
		if (strcmp(r->policy, c->baseline) != 0 && strcmp(columns[i], c->baseline) != 0)
			continue;
		if (first == NULL) {
			first = columns[i];
			first_run = r;
		} else if (strcmp(first, columns[i]) != 0) {
			const char *param = "kernel";
			/* a token one of the two has and the other lacks */
			for (size_t t = 0; t < r->exp.count; t++)
				if (token_used(g, &r->exp.tokens[t], true) &&
				    !has_token(first_run, r->exp.tokens[t].text))
					param = experiment_param_name(r->exp.tokens[t].param);
			for (size_t t = 0; t < first_run->exp.count; t++)
				if (token_used(g, &first_run->exp.tokens[t], true) &&
				    !has_token(r, first_run->exp.tokens[t].text))
					param = experiment_param_name(first_run->exp.tokens[t].param);
			fprintf(stderr, "labstat: the baseline %s has more than one column (%s differs: "
				"'%s' and '%s'); name one column as --baseline, give runs of one, or "
				"merge them with --ignore %s\n", c->baseline, param, first, columns[i], param);
			return -2;
		}
	}
	ssize_t b = first != NULL ? index_of(c->policies, c->ncols, first) : -1;
	c->baseline_col = b >= 0 ? 0 : -1;
	if (b > 0) {
		char *base = c->policies[b];
		memmove(&c->policies[1], &c->policies[0], (size_t)b * sizeof(char *));
		c->policies[0] = base;
	}
	return 0;
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
		     const struct grouping *g, const struct metric *metric,
		     const char *baseline)
{
	char **labels = NULL, **columns = NULL;

	memset(c, 0, sizeof(*c));
	c->metric = metric->label;
	c->baseline = baseline;
	if (grouping_labels(g, runs, &labels, &columns) != 0)
		goto oom;
	for (size_t i = 0; i < runs->count; i++)
		if (add_unique(&c->rows, &c->nrows, labels[i]) ||
		    add_unique(&c->policies, &c->ncols, columns[i]))
			goto oom;
	if (c->nrows > 1)
		qsort(c->rows, c->nrows, sizeof(char *), compare_strings);
	if (order_policies(c, runs, g, columns) != 0) {
		grouping_labels_free(runs, labels, columns);
		comparison_free(c);
		return -2;
	}
	c->cells = calloc(c->nrows * c->ncols + 1, sizeof(*c->cells));
	c->gmean = calloc(c->ncols + 1, sizeof(*c->gmean));
	c->gmean_rows = calloc(c->ncols + 1, sizeof(*c->gmean_rows));
	if (c->cells == NULL || c->gmean == NULL || c->gmean_rows == NULL)
		goto oom;
	for (size_t i = 0; i < runs->count; i++) {
		const struct run *run = &runs->runs[i];
		const char *missing = NULL;
		double v;

		int rc = metric_value(metric, run->root, &v, &missing);

		if (rc == METRIC_NONE)
			continue; /* not the workload's: no note */
		if (rc != 0) {
			fprintf(stderr, "labstat: note: %s has no number at %s, left out of %s\n",
				run->path, missing, metric->label);
			continue;
		}
		size_t r = (size_t)index_of(c->rows, c->nrows, labels[i]);
		size_t p = (size_t)index_of(c->policies, c->ncols, columns[i]);
		if (cell_add(comparison_cell(c, r, p), v) != 0)
			goto oom;
	}
	grouping_labels_free(runs, labels, columns);
	compute_cells(c);
	compute_gmeans(c);
	return 0;
oom:
	grouping_labels_free(runs, labels, columns);
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
