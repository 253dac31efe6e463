#define _POSIX_C_SOURCE 200809L
#include "runs.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"

static char *join_path(const char *dir, const char *name)
{
	size_t len = strlen(dir) + strlen(name) + 2;
	char *p = malloc(len);

	if (p != NULL)
		snprintf(p, len, "%s/%s", dir, name);
	return p;
}

static const char *string_member(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static void free_run(struct run *r)
{
	free(r->path);
	free(r->workload);
	free(r->policy);
	experiment_free(&r->exp);
	json_decref(r->root);
}

static int append_run(struct run_set *set, struct run run)
{
	struct run *runs = grow_for_one_more(set->runs, set->count, &set->capacity, sizeof(*runs), 16);

	if (runs == NULL)
		return -1;
	set->runs = runs;
	set->runs[set->count++] = run;
	return 0;
}

static int add_result_file(struct run_set *set, const char *file)
{
	json_error_t err;
	json_t *root = json_load_file(file, 0, &err);

	if (root == NULL) {
		fprintf(stderr, "labstat: %s:%d: bad JSON: %s\n", file, err.line, err.text);
		return -1;
	}
	if (!json_is_object(root)) {
		fprintf(stderr, "labstat: %s: not a JSON object\n", file);
		json_decref(root);
		return -1;
	}
	json_t *version = json_object_get(root, "schema_version");

	/* absent: a run from before the field, which reads as version 1 */
	if (version != NULL && (!json_is_integer(version) || json_integer_value(version) < 1)) {
		fprintf(stderr, "labstat: %s: schema_version is not a positive integer\n", file);
		json_decref(root);
		return -1;
	}
	if (version != NULL && json_integer_value(version) > RESULT_SCHEMA_VERSION) {
		fprintf(stderr, "labstat: %s: schema_version %lld is newer than this labstat reads "
			"(1 to %d)\n", file, (long long)json_integer_value(version),
			RESULT_SCHEMA_VERSION);
		json_decref(root);
		return -1;
	}
	const char *workload = string_member(root, "workload");
	const char *policy = string_member(root, "policy");
	const char *exit_status = string_member(root, "exit");

	if (workload == NULL || policy == NULL || exit_status == NULL) {
		fprintf(stderr, "labstat: %s: missing workload, policy or exit\n", file);
		json_decref(root);
		return -1;
	}
	if (strcmp(exit_status, "ok") != 0) {
		fprintf(stderr, "labstat: note: skipping %s (exit %s)\n", file, exit_status);
		json_decref(root);
		return 0;
	}
	struct run run = {
		.path = strdup(file),
		.workload = strdup(workload),
		.policy = strdup(policy),
		.root = root,
	};
	if (run.path == NULL || run.workload == NULL || run.policy == NULL ||
	    experiment_read(&run.exp, root) != 0 || append_run(set, run) != 0) {
		fprintf(stderr, "labstat: out of memory\n");
		free_run(&run);
		return -1;
	}
	return 0;
}

static int is_directory(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds a run directory; returns 1 when it holds no result.json. */
static int add_run_dir(struct run_set *set, const char *dir)
{
	char *file = join_path(dir, "result.json");
	int rc;

	if (file == NULL)
		return -1;
	if (access(file, F_OK) != 0)
		rc = 1;
	else
		rc = add_result_file(set, file);
	free(file);
	return rc;
}

/* Runs at any depth below dir (at most MAX_DEPTH levels): a directory
 * with result.json is a run, any other is searched.  Returns the number
 * of runs added, or -1. */
#define MAX_DEPTH 8
static int add_results_dir(struct run_set *set, const char *dir, int depth)
{
	size_t before = set->count;
	DIR *d = opendir(dir);
	char **names = NULL;
	size_t count = 0, cap = 0;
	int rc = 0;

	if (d == NULL) {
		fprintf(stderr, "labstat: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	for (struct dirent *e; (e = readdir(d)) != NULL;) {
		if (e->d_name[0] == '.')
			continue;
		char **grown = grow_for_one_more(names, count, &cap, sizeof(*names), 64);

		if (grown == NULL) {
			rc = -1;
			break;
		}
		names = grown;
		names[count] = strdup(e->d_name);
		if (names[count] == NULL) {
			rc = -1;
			break;
		}
		count++;
	}
	closedir(d);
	if (rc != 0)
		fprintf(stderr, "labstat: out of memory\n");
	/* Sorted so that output and notes do not depend on readdir order. */
	if (count > 1)
		qsort(names, count, sizeof(*names), compare_names);
	for (size_t i = 0; i < count && rc == 0; i++) {
		char *sub = join_path(dir, names[i]);

		if (sub == NULL) {
			rc = -1;
		} else if (is_directory(sub)) {
			int r = add_run_dir(set, sub);
			if (r == 1 && depth < MAX_DEPTH)
				r = add_results_dir(set, sub, depth + 1) == 0 ? 1 : 0;
			if (r == 1)
				fprintf(stderr, "labstat: note: skipping %s (no result.json)\n", sub);
			else if (r < 0)
				rc = -1;
		}
		free(sub);
	}
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
	return rc < 0 ? -1 : (int)(set->count - before);
}

int run_set_add_path(struct run_set *set, const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		fprintf(stderr, "labstat: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return add_result_file(set, path);
	int r = add_run_dir(set, path);
	if (r == 1)
		return add_results_dir(set, path, 1) < 0 ? -1 : 0;
	return r;
}

void run_set_free(struct run_set *set)
{
	for (size_t i = 0; i < set->count; i++)
		free_run(&set->runs[i]);
	free(set->runs);
	memset(set, 0, sizeof(*set));
}

static double sum_array(json_t *a, int *ok)
{
	size_t i;
	json_t *v;
	double s = 0.0;

	if (!json_is_array(a)) {
		*ok = 0;
		return 0.0;
	}
	json_array_foreach(a, i, v) {
		if (!json_is_number(v))
			*ok = 0;
		s += json_number_value(v);
	}
	return s;
}

int run_trace_loss(const struct run *r, double *share)
{
	json_t *events = json_object_get(r->root, "trace_events");
	int ok = 1;

	if (json_object_get(r->root, "trace_lost_events") == NULL)
		return 0;	/* no trace.dat, or a result from before the field */
	double lost = sum_array(json_object_get(r->root, "trace_lost_events"), &ok);
	int unknown_ok = 1;
	double unknown = sum_array(json_object_get(r->root, "trace_lost_unknown_gaps"), &unknown_ok);
	if (!ok || !json_is_number(events)) {
		*share = NAN;
		return 1;
	}
	double total = json_number_value(events) + lost;
	*share = total > 0.0 ? lost / total : 0.0;
	return lost > 0.0 || (unknown_ok && unknown > 0.0);
}
