/* Metrics: a label and a sum of dotted JSON paths, e.g.
 * "refaults=vmstat.workingset_refault_anon+vmstat.workingset_refault_file"
 * or just "vmstat.pswpin" (the expression is then its own label). A term
 * "@rate", "@read_back" or "@p99" is the path lab/registry/workloads.tsv gives
 * for the run's workload in that column: "rate=@rate" is every workload's
 * own throughput. */
#ifndef METRIC_H
#define METRIC_H

#include <jansson.h>

#define METRIC_MAX_TERMS 8

struct metric {
	char *label;
	char *terms[METRIC_MAX_TERMS];
	int nterms;
};

/* Returns 0, or -1 after printing one error line. */
int metric_parse(struct metric *m, const char *spec);
void metric_free(struct metric *m);

/* Returns 0 and the sum in *value, or -1 when a term is missing or not
 * a number (the name of the first such term is stored in *missing), or
 * METRIC_NONE when an @ term's workload has "-" there: the metric does not
 * apply to it (say, the p99 of a loop that times no operation). */
#define METRIC_NONE (-2)
int metric_value(const struct metric *m, json_t *root, double *value,
		 const char **missing);

#endif
