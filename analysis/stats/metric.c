#define _POSIX_C_SOURCE 200809L
#include "metric.h"

#include "../registry/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A term "@COLUMN" is the run's workload's field in that column of
 * lab/registry/workloads.tsv, itself a path: @rate, @read_back, @p99. */
static const char *const workload_columns[] = { "rate", "read_back", "p99", NULL };

static int valid_term(const char *t)
{
	if (*t == '@') {
		for (int i = 0; workload_columns[i]; i++)
			if (strcmp(t + 1, workload_columns[i]) == 0)
				return 1;
		return 0;
	}
	if (*t == '\0' || *t == '.' || t[strlen(t) - 1] == '.' || strstr(t, "..") != NULL)
		return 0;
	for (; *t; t++)
		if (!(*t == '_' || *t == '.' || *t == '-' ||
		      (*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z') ||
		      (*t >= '0' && *t <= '9')))
			return 0;
	return 1;
}

int metric_parse(struct metric *m, const char *spec)
{
	memset(m, 0, sizeof(*m));
	const char *eq = strchr(spec, '=');
	const char *expr = eq ? eq + 1 : spec;
	char *copy = strdup(expr);

	m->label = eq ? strndup(spec, (size_t)(eq - spec)) : strdup(spec);
	if (copy == NULL || m->label == NULL) {
		free(copy);
		metric_free(m);
		fprintf(stderr, "labstat: out of memory\n");
		return -1;
	}
	char *save = NULL;
	for (char *t = strtok_r(copy, "+", &save); t; t = strtok_r(NULL, "+", &save)) {
		if (m->nterms == METRIC_MAX_TERMS || !valid_term(t)) {
			fprintf(stderr, "labstat: bad metric '%s' (want [LABEL=]PATH[+PATH...], at most %d terms)\n",
				spec, METRIC_MAX_TERMS);
			free(copy);
			metric_free(m);
			return -1;
		}
		m->terms[m->nterms++] = strdup(t);
	}
	free(copy);
	if (m->nterms == 0 || m->label[0] == '\0' || strchr(m->label, ',') != NULL) {
		fprintf(stderr, "labstat: bad metric '%s' (want [LABEL=]PATH[+PATH...])\n", spec);
		metric_free(m);
		return -1;
	}
	return 0;
}

void metric_free(struct metric *m)
{
	free(m->label);
	for (int i = 0; i < m->nterms; i++)
		free(m->terms[i]);
	memset(m, 0, sizeof(*m));
}

static json_t *lookup_path(json_t *root, const char *path)
{
	char key[256];
	json_t *node = root;

	while (node != NULL && *path) {
		size_t len = strcspn(path, ".");
		if (len >= sizeof(key))
			return NULL;
		memcpy(key, path, len);
		key[len] = '\0';
		node = json_object_get(node, key);
		path += len;
		if (*path == '.')
			path++;
	}
	return node;
}

int metric_value(const struct metric *m, json_t *root, double *value,
		 const char **missing)
{
	double sum = 0.0;

	for (int i = 0; i < m->nterms; i++) {
		const char *path = m->terms[i];
		json_t *v;

		if (*path == '@') {
			const struct registry_table *w = registry_workloads();
			const char *name = json_string_value(json_object_get(root, "workload"));

			if (w == NULL || name == NULL) {
				*missing = m->terms[i];
				return -1;
			}
			path = registry_get(w, name, path + 1);
			if (path == NULL) {
				*missing = m->terms[i];
				return METRIC_NONE;
			}
		}
		v = lookup_path(root, path);
		if (!json_is_number(v)) {
			*missing = m->terms[i];
			return -1;
		}
		sum += json_number_value(v);
	}
	*value = sum;
	return 0;
}
