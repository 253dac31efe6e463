/* Descriptive statistics and Welch's t-test for small samples. */
#ifndef SAMPLE_STATS_H
#define SAMPLE_STATS_H

#include <stddef.h>

struct sample_summary {
	size_t n;
	double mean;
	double sd;		/* sample standard deviation (n-1); NaN for n<2 */
	double ci95;		/* half-width of the 95% CI of the mean; NaN for n<2 */
};

struct welch_result {
	double t;
	double df;		/* Welch-Satterthwaite degrees of freedom */
	double p;		/* two-sided p-value; NaN when not computable */
};

struct sample_summary sample_summarize(const double *x, size_t n);

/* Two-sided critical value t such that P(|T_df| <= t) = level. */
double student_t_critical(double level, double df);

/* Welch's unequal-variance t-test of a against b.  Needs n >= 2 on both
 * sides, else p is NaN.  With both variances zero the test degenerates:
 * p is 1 for equal means and 0 otherwise (t is then +-inf, df NaN). */
struct welch_result welch_test(const struct sample_summary *a,
			       const struct sample_summary *b);

#endif
