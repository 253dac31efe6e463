/* The comparison table of one metric: rows are workloads, columns are
 * policies, each cell the runs of that (workload, policy) pair. */
#ifndef COMPARE_H
#define COMPARE_H

#include "metric.h"
#include "runs.h"
#include "sample_stats.h"

#define SIGNIFICANCE_LEVEL 0.05

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
	char **rows;			/* workload labels, sorted */
	char **policies;		/* baseline first, the rest sorted */
	int baseline_col;		/* -1 when no run used the baseline */
	struct cell *cells;		/* nrows * ncols */
	double *gmean;			/* per policy: geometric mean of ratios */
	size_t *gmean_rows;		/* rows that went into it */
};

/* Returns 0, or -1 after printing one error line. */
int comparison_build(struct comparison *c, const struct run_set *runs,
		     const struct metric *metric, const char *baseline);
void comparison_free(struct comparison *c);

static inline struct cell *comparison_cell(const struct comparison *c,
					   size_t row, size_t col)
{
	return &c->cells[row * c->ncols + col];
}

#endif
