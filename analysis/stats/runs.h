/* Loading result.json files of completed runs (see CONTRACTS.md). */
#ifndef RUNS_H
#define RUNS_H

#include <jansson.h>
#include <stddef.h>

struct run {
	char *path;		/* the result.json it came from */
	char *workload;
	char *policy;
	/* The run's setup as "key=value" tokens (mem, vcpus, accel and the
	 * workload options except --seed), so that runs of one workload made
	 * with different setups are not averaged together. */
	char **setup;
	size_t nsetup;
	json_t *root;
};

struct run_set {
	struct run *runs;
	size_t count;
	size_t capacity;
};

/* Adds the run(s) found at path: a result.json file, a run directory
 * holding one, or a results directory whose subdirectories are runs.
 * Directories without result.json and runs whose exit is not "ok" are
 * skipped with a note on stderr.  Returns 0, or -1 after printing one
 * error line (unreadable path, malformed JSON, missing fields). */
int run_set_add_path(struct run_set *set, const char *path);

void run_set_free(struct run_set *set);

#endif
