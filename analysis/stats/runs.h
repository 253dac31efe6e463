/* Loading result.json files of completed runs (see CONTRACTS.md). */
#ifndef RUNS_H
#define RUNS_H

#include <jansson.h>
#include <stddef.h>

#include "experiment.h"

/* The newest result.json layout this code reads (CONTRACTS.md,
 * "schema_version"); lab/lib/result.sh writes it. */
#define RESULT_SCHEMA_VERSION 1

struct run {
	char *path;		/* the result.json it came from */
	char *workload;
	char *policy;
	/* Every other parameter that makes the experiment (experiment.h), so
	 * that runs of different experiments are never averaged together. */
	struct experiment exp;
	json_t *root;
};

struct run_set {
	struct run *runs;
	size_t count;
	size_t capacity;
};

/* Adds the run(s) found at path: a result.json file, a run directory
 * holding one, or a directory holding runs at any depth (a results
 * directory, a matrix).  Directories whose names start with a dot (runs
 * being written) are not searched; directories without result.json
 * and without runs below, and runs whose exit is not "ok", are skipped
 * with a note on stderr.  Returns 0, or -1 after printing one
 * error line (unreadable path, malformed JSON, missing fields). */
int run_set_add_path(struct run_set *set, const char *path);

void run_set_free(struct run_set *set);

/* A traced run's lost trace events as a share of the events that
 * happened (recorded + lost), from trace_events and trace_lost_events.
 * Returns 1 and the share when the run has a trace.dat that lost events
 * or whose losses are unknown (unreadable trace, or gaps of unknown size:
 * *share is then NaN or a lower bound), 0 when nothing was lost or the
 * run has no trace.dat. */
int run_trace_loss(const struct run *r, double *share);

/* Runs that lost more than this share of their trace events are flagged. */
#define TRACE_LOSS_LIMIT 0.001

#endif
