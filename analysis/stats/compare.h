/* The comparison table of one metric: rows are experiments without their
 * policy and kernel (the workload and every other parameter, see
 * experiment.h), columns are policies (and kernels, where runs of one
 * policy or one kernel flavour ran on more than one build), each cell
 * the reps of one experiment. */
#ifndef COMPARE_H
#define COMPARE_H

#include <stdbool.h>

#include "experiment.h"
#include "metric.h"
#include "runs.h"
#include "sample_stats.h"

#define SIGNIFICANCE_LEVEL 0.05

/* Which parameters a table leaves out of the experiment (--ignore). */
struct grouping {
	bool ignore[EXPERIMENT_PARAMS];
	bool column[EXPERIMENT_PARAMS];	/* --columns: in the column labels, not the rows' */
};

struct cell {
	double *values;
	size_t count, capacity;
	struct sample_summary summary;
	struct welch_result welch;	/* against the baseline cell of the row */
	double ratio;			/* mean / baseline mean, NaN if undefined */
	double ratio_lo, ratio_hi;	/* (mean -+ ci95) / baseline mean */
};

struct comparison {
	const char *metric;
	const char *baseline;
	size_t nrows, ncols;
	char **rows;			/* workload and differing parameters, sorted */
	char **policies;		/* column labels: baseline first, the rest sorted */
	int baseline_col;		/* -1 when no run used the baseline */
	struct cell *cells;		/* nrows * ncols */
	double *gmean;			/* per policy: geometric mean of ratios */
	size_t *gmean_rows;		/* rows that went into it */
};

/* The row and column labels of every run: a row is the workload and the
 * row parameters that differ between its runs; a column is the policy and
 * the kernel parameters that differ between the runs of that policy or
 * of that kernel flavour.  Runs share a row and a column exactly when
 * they are reps of one experiment (ignored parameters aside).  Returns
 * 0, or -1 when out of memory. */
int grouping_labels(const struct grouping *g, const struct run_set *runs,
		    char ***rows, char ***columns);
void grouping_labels_free(const struct run_set *runs, char **rows, char **columns);

/* Returns 0, -1 after printing one error line, or -2 after printing one
 * line when the table would mix experiments (the baseline policy has
 * more than one column: it ran on several kernels, or --columns split it). */
int comparison_build(struct comparison *c, const struct run_set *runs,
		     const struct grouping *g, const struct metric *metric,
		     const char *baseline);
void comparison_free(struct comparison *c);

static inline struct cell *comparison_cell(const struct comparison *c,
					   size_t row, size_t col)
{
	return &c->cells[row * c->ncols + col];
}

#endif
