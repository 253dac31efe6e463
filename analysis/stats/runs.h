/* Loading result.json files of completed runs (see CONTRACTS.md). */
#ifndef RUNS_H
#define RUNS_H

#include <jansson.h>
#include <stddef.h>

struct run {
	char *path;		/* the result.json it came from */
	char *workload;
	char *policy;
	char *size;		/* params.size as text, "" when absent */
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
