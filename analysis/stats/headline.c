#define _POSIX_C_SOURCE 200809L
#include "headline.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../registry/registry.h"
#include "metric.h"

/* The three comparisons of one workload's runs. */
enum { READ_BACK, WALL, RATE, NCOMP };

static bool column_is(const char *label, const char *policy)
{
	size_t len = strlen(policy);
	return strncmp(label, policy, len) == 0 && (label[len] == '\0' || label[len] == ' ');
}

/* "1,234,567" for counts, three digits for ratios and CIs below 100. */
static void grouped(char *buf, size_t len, double v)
{
	char digits[64];
	size_t n, out = 0;

	if (!isfinite(v)) {
		snprintf(buf, len, "n/a");
		return;
	}
	if (fabs(v) < 100.0) {
		snprintf(buf, len, "%.3g", v);
		return;
	}
	snprintf(digits, sizeof(digits), "%.0f", fabs(v));
	n = strlen(digits);
	if (v < 0 && out + 1 < len)
		buf[out++] = '-';
	for (size_t i = 0; i < n && out + 2 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			buf[out++] = ',';
		buf[out++] = digits[i];
	}
	buf[out] = '\0';
}

static void ratio_text(char *buf, size_t len, const struct comparison *c, const struct cell *cell,
		       size_t col, bool with_p)
{
	bool sig = isfinite(cell->welch.p) && cell->welch.p < SIGNIFICANCE_LEVEL;

	if (cell->count == 0 || (int)col == c->baseline_col || c->baseline_col < 0)
		snprintf(buf, len, "%s", (int)col == c->baseline_col ? "1" : "—");
	else if (!isfinite(cell->ratio))
		snprintf(buf, len, "n/a");
	else if (with_p && isfinite(cell->welch.p))
		snprintf(buf, len, "%.2f%s (p %.2g)", cell->ratio, sig ? "*" : "", cell->welch.p);
	else
		snprintf(buf, len, "%.2f%s", cell->ratio, sig ? "*" : "");
}

/* The runs of one workload (shallow copies: the set owns nothing). */
static int workload_runs(struct run_set *sub, const struct run_set *runs, const char *workload)
{
	memset(sub, 0, sizeof(*sub));
	sub->runs = calloc(runs->count + 1, sizeof(*sub->runs));
	if (sub->runs == NULL)
		return -1;
	for (size_t i = 0; i < runs->count; i++)
		if (strcmp(runs->runs[i].workload, workload) == 0)
			sub->runs[sub->count++] = runs->runs[i];
	sub->capacity = sub->count;
	return 0;
}

static int workload_rows(struct table *t, size_t *row, const struct run_set *sub,
			 const struct grouping *g, const char *baseline, const char *workload,
			 const struct registry_table *policies)
{
	const struct registry_table *workloads = registry_workloads();
	const char *specs[NCOMP] = {
		registry_get(workloads, workload, "read_back"), "wall_s",
		registry_get(workloads, workload, "rate"),
	};
	struct metric m[NCOMP];
	struct comparison c[NCOMP];
	int nm = 0, nc = 0, rc = -1;

	if (specs[READ_BACK] == NULL) {
		fprintf(stderr, "labstat: %s: no read_back counter in %s/workloads.tsv\n", workload,
			registry_dir());
		return -1;
	}
	for (; nm < NCOMP; nm++)
		if (specs[nm] != NULL && metric_parse(&m[nm], specs[nm]) != 0)
			goto out;
	for (; nc < NCOMP; nc++) {
		if (specs[nc] == NULL) {
			memset(&c[nc], 0, sizeof(c[nc]));
			continue;
		}
		rc = comparison_build(&c[nc], sub, g, &m[nc], baseline);
		if (rc != 0)
			goto out;
		rc = -1;
	}
	/* Every comparison has the same rows and columns: one set of runs. */
	for (size_t r = 0; r < c[READ_BACK].nrows; r++)
		for (size_t p = 0; p < policies->nrows; p++)
			for (size_t col = 0; col < c[READ_BACK].ncols; col++) {
				const char *label = c[READ_BACK].policies[col];
				const struct cell *rb = comparison_cell(&c[READ_BACK], r, col);
				char mean[48], ci[48], text[3][96];
				if (!column_is(label, policies->rows[p].fields[0]) || rb->count == 0)
					continue;
				grouped(mean, sizeof(mean), rb->summary.mean);
				grouped(ci, sizeof(ci), rb->summary.ci95);
				ratio_text(text[0], sizeof(text[0]), &c[READ_BACK], rb, col, true);
				ratio_text(text[1], sizeof(text[1]), &c[WALL], comparison_cell(&c[WALL], r, col),
					   col, false);
				if (specs[RATE] != NULL)
					ratio_text(text[2], sizeof(text[2]), &c[RATE],
						   comparison_cell(&c[RATE], r, col), col, false);
				else
					snprintf(text[2], sizeof(text[2]), "—");
				if (table_set(t, *row, 0, "%s", c[READ_BACK].rows[r]) ||
				    table_set(t, *row, 1, "%s", label) ||
				    table_set(t, *row, 2, "%s", specs[READ_BACK]) ||
				    table_set(t, *row, 3, "%zu", rb->count) ||
				    table_set(t, *row, 4, "%s ± %s", mean, ci) ||
				    table_set(t, *row, 5, "%s", text[0]) ||
				    table_set(t, *row, 6, "%s", text[1]) ||
				    table_set(t, *row, 7, "%s", text[2]))
					goto out;
				(*row)++;
			}
	rc = 0;
out:
	for (int i = 0; i < nc; i++)
		if (specs[i] != NULL)
			comparison_free(&c[i]);
	for (int i = 0; i < nm; i++)
		if (specs[i] != NULL)
			metric_free(&m[i]);
	return rc;
}

int headline_write(FILE *out, enum table_format format, const struct run_set *runs,
		   const struct grouping *g, const char *baseline)
{
	const struct registry_table *policies = registry_policies();
	const struct registry_table *workloads = registry_workloads();
	struct table t;
	size_t row = 1;
	int rc = 0;

	if (policies == NULL || workloads == NULL)
		return -1;
	/* At most one row per run, and the header. */
	if (table_init(&t, runs->count + 1, 8, 3) != 0) {
		fprintf(stderr, "labstat: out of memory\n");
		return -1;
	}
	static const char *const head[] = { "workload", "policy", "counter", "runs",
		"pages read back" };
	for (size_t i = 0; i < 5 && rc == 0; i++)
		rc = table_set(&t, 0, i, "%s", head[i]);
	rc = rc || table_set(&t, 0, 5, "× %s (Welch p)", baseline) ||
	     table_set(&t, 0, 6, "time × %s", baseline) || table_set(&t, 0, 7, "rate × %s", baseline) || table_set(&t, SIZE_MAX, 0, "Pages read back: mean ± 95%% CI (Student t) over the runs; "
			     "against %s: ratio of the means, * p < %.2f (Welch's t-test); time: wall_s; "
			     "rate: the workload's own throughput", baseline, SIGNIFICANCE_LEVEL);
	for (size_t w = 0; w < workloads->nrows && rc == 0; w++) {
		const char *name = workloads->rows[w].fields[0];
		struct run_set sub;
		if (workload_runs(&sub, runs, name) != 0) {
			rc = -1;
			break;
		}
		if (sub.count > 0)
			rc = workload_rows(&t, &row, &sub, g, baseline, name, policies);
		free(sub.runs);
	}
	for (size_t i = 0; i < runs->count && rc == 0; i++)
		if (registry_get(workloads, runs->runs[i].workload, "name") == NULL) {
			fprintf(stderr, "labstat: %s: workload %s is not in %s/workloads.tsv\n",
				runs->runs[i].path, runs->runs[i].workload, registry_dir());
			rc = -1;
		}
	if (rc == 0) {
		size_t all = t.nrows;
		t.nrows = row;	/* the rows written; table_free frees them all */
		table_write(out, format, &t, 1);
		t.nrows = all;
	} else if (rc == 1) {
		fprintf(stderr, "labstat: out of memory\n");
		rc = -1;
	}
	table_free(&t);
	return rc;
}
