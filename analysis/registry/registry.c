#define _POSIX_C_SOURCE 200809L
#include "registry.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef LAB_REGISTRY_DIR
#error "build with -DLAB_REGISTRY_DIR=\"/path/to/lab/registry\" (analysis/Makefile does)"
#endif

const char *registry_dir(void)
{
	return LAB_REGISTRY_DIR;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, cap = 0, n;

	if (f == NULL)
		return NULL;
	do {
		if (cap - len < 4096) {
			char *more = realloc(text, cap + 65536);
			if (more == NULL) {
				free(text);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			text = more;
			cap += 65536;
		}
		n = fread(text + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		free(text);
		fclose(f);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	text[len] = '\0';
	return text;
}

/* Splits line at tabs in place into at most max fields; returns how many
 * there are (max + 1 when there are more). */
static size_t split(char *line, char **fields, size_t max)
{
	size_t n = 0;

	for (char *p = line;; p++) {
		if (n == max)
			return max + 1;
		fields[n++] = p;
		p = strchr(p, '\t');
		if (p == NULL)
			return n;
		*p = '\0';
	}
}

#define MAX_COLUMNS 32

static int fail(struct registry_table *t, const char *why, const char *what)
{
	fprintf(stderr, "registry: %s: %s%s%s\n", t->path, why, what ? " " : "", what ? what : "");
	registry_free(t);
	return -1;
}

int registry_load(struct registry_table *t, const char *dir, const char *name,
		  const char *const *columns)
{
	char *fields[MAX_COLUMNS + 1];
	size_t cap = 0;

	memset(t, 0, sizeof(*t));
	if ((t->path = malloc(strlen(dir) + strlen(name) + 2)) == NULL) {
		fprintf(stderr, "registry: out of memory\n");
		return -1;
	}
	sprintf(t->path, "%s/%s", dir, name);
	if ((t->text = read_file(t->path)) == NULL)
		return fail(t, strerror(errno), NULL);
	for (char *line = t->text, *next; line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		if (*line == '#' || *line == '\0')
			continue;
		size_t n = split(line, fields, MAX_COLUMNS);
		if (t->columns == NULL) {
			if (n > MAX_COLUMNS)
				return fail(t, "more columns than", "32");
			if ((t->columns = malloc(n * sizeof(*t->columns))) == NULL)
				return fail(t, "out of memory", NULL);
			memcpy(t->columns, fields, n * sizeof(*fields));
			t->ncolumns = n;
			continue;
		}
		if (n != t->ncolumns)
			return fail(t, "a row with another number of fields than the header:", fields[0]);
		for (size_t i = 0; i < n; i++)
			if (*fields[i] == '\0')
				return fail(t, "an empty field (\"-\" is none) in the row of", fields[0]);
		if (t->nrows == cap) {
			struct registry_row *more = realloc(t->rows, (cap = cap ? 2 * cap : 16) * sizeof(*more));
			if (more == NULL)
				return fail(t, "out of memory", NULL);
			t->rows = more;
		}
		if ((t->rows[t->nrows].fields = malloc(n * sizeof(*fields))) == NULL)
			return fail(t, "out of memory", NULL);
		memcpy(t->rows[t->nrows++].fields, fields, n * sizeof(*fields));
	}
	if (t->columns == NULL || strcmp(t->columns[0], "name") != 0)
		return fail(t, "no header row starting with", "name");
	for (; *columns != NULL; columns++) {
		size_t c = 0;
		while (c < t->ncolumns && strcmp(t->columns[c], *columns) != 0)
			c++;
		if (c == t->ncolumns)
			return fail(t, "no column", *columns);
	}
	for (size_t i = 0; i < t->nrows; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(t->rows[i].fields[0], t->rows[j].fields[0]) == 0)
				return fail(t, "two rows named", t->rows[i].fields[0]);
	return 0;
}

void registry_free(struct registry_table *t)
{
	for (size_t i = 0; i < t->nrows; i++)
		free(t->rows[i].fields);
	free(t->rows);
	free(t->columns);
	free(t->text);
	free(t->path);
	memset(t, 0, sizeof(*t));
}

const char *registry_field(const struct registry_table *t, size_t i, const char *col)
{
	for (size_t c = 0; i < t->nrows && c < t->ncolumns; c++)
		if (strcmp(t->columns[c], col) == 0)
			return strcmp(t->rows[i].fields[c], "-") == 0 ? NULL : t->rows[i].fields[c];
	return NULL;
}

const char *registry_get(const struct registry_table *t, const char *name, const char *col)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (strcmp(t->rows[i].fields[0], name) == 0)
			return registry_field(t, i, col);
	return NULL;
}

static const struct registry_table *load_once(struct registry_table *t, int *state,
					      const char *name, const char *const *columns)
{
	if (*state == 0)
		*state = registry_load(t, registry_dir(), name, columns) == 0 ? 1 : -1;
	return *state > 0 ? t : NULL;
}

const struct registry_table *registry_policies(void)
{
	static const char *const columns[] = { "name", "kernel", "config", "file", "model",
					       "perf", "event", "about", NULL };
	static struct registry_table t;
	static int state;

	return load_once(&t, &state, "policies.tsv", columns);
}

const struct registry_table *registry_workloads(void)
{
	static const char *const columns[] = { "name", "read_back", "rate", "p99", "about", NULL };
	static struct registry_table t;
	static int state;

	return load_once(&t, &state, "workloads.tsv", columns);
}
