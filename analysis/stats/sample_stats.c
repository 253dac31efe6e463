#include "sample_stats.h"

#include <math.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

struct sample_summary sample_summarize(const double *x, size_t n)
{
	struct sample_summary s = { .n = n, .mean = NAN, .sd = NAN, .ci95 = NAN };

	if (n == 0)
		return s;
	s.mean = gsl_stats_mean(x, 1, n);
	if (n < 2)
		return s;
	s.sd = gsl_stats_sd_m(x, 1, n, s.mean);
	s.ci95 = student_t_critical(0.95, (double)(n - 1)) * s.sd / sqrt((double)n);
	return s;
}

double student_t_critical(double level, double df)
{
	return gsl_cdf_tdist_Pinv(0.5 + level / 2.0, df);
}

struct welch_result welch_test(const struct sample_summary *a,
			       const struct sample_summary *b)
{
	struct welch_result r = { .t = NAN, .df = NAN, .p = NAN };

	if (a->n < 2 || b->n < 2)
		return r;
	double va = a->sd * a->sd / (double)a->n;
	double vb = b->sd * b->sd / (double)b->n;
	double diff = a->mean - b->mean;

	if (va + vb == 0.0) {
		r.t = diff == 0.0 ? 0.0 : copysign(INFINITY, diff);
		r.p = diff == 0.0 ? 1.0 : 0.0;
		return r;
	}
	r.t = diff / sqrt(va + vb);
	r.df = (va + vb) * (va + vb) /
	       (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	r.p = 2.0 * gsl_cdf_tdist_Q(fabs(r.t), r.df);
	return r;
}
