/* The lab's registry of policies and workloads (lab/registry/policies.tsv
 * and workloads.tsv), as the analysis tools read it: labstat's models and
 * read-back counters, perf-reclaim's "policy" part.  The files are
 * tab-separated; a first row that names the columns, "-" for none, lines
 * starting with '#' are comments.  Columns are found by name, so the
 * files may grow new ones. */
#ifndef REGISTRY_H
#define REGISTRY_H

#include <stddef.h>

/* One row: its fields by column, NULL where the column is absent; "-"
 * reads as NULL. */
struct registry_row {
	char **fields;
};

struct registry_table {
	char *path;
	char **columns;
	size_t ncolumns;
	struct registry_row *rows;
	size_t nrows;
	char *text;		/* the file, split in place */
};

/* The directory the tools read: the lab's own lab/registry, compiled in
 * (LAB_REGISTRY_DIR). */
const char *registry_dir(void);

/* Loads dir/name (e.g. "policies.tsv") and checks that it has every one of
 * the NULL-terminated columns, each row as many fields as the header and
 * none empty.  Returns 0, or -1 after one error line on stderr. */
int registry_load(struct registry_table *t, const char *dir, const char *name,
		  const char *const *columns);
void registry_free(struct registry_table *t);

/* The field of column col in the row whose "name" is name: NULL when no
 * row has that name, the column is absent or the field is "-". */
const char *registry_get(const struct registry_table *t, const char *name, const char *col);

/* The field of column col in row i (NULL for "-"). */
const char *registry_field(const struct registry_table *t, size_t i, const char *col);

/* The policies and the workloads, loaded from registry_dir() on first use
 * and kept; NULL after one error line. */
const struct registry_table *registry_policies(void);
const struct registry_table *registry_workloads(void);

#endif
