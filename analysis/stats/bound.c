#define _POSIX_C_SOURCE 200809L
#include "bound.h"
#include "metric.h"

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../registry/registry.h"

#define MAX_MODELS 32
#define LINE_MAX_LEN 1024

/* Whether the run's guest had boot argument @arg (params.boot_args). */
static bool run_has_boot_arg(const struct run *r, const char *arg)
{
	json_t *args = json_object_get(json_object_get(r->root, "params"), "boot_args");
	size_t i;
	json_t *a;

	json_array_foreach(args, i, a)
		if (json_is_string(a) && strcmp(json_string_value(a), arg) == 0)
			return true;
	return false;
}

/* Each kernel policy's user-space counterpart in pagesim is the registry's
 * model column: 6.1's two lists for the unpatched kernel and the
 * framework's lru, the model of the same algorithm for the research
 * policies; MGLRU has none.  clockpro's 2006 insertion,
 * page_replace.clockpro_insert=port on the guest's command line, is its
 * model's insert=port. */
const char *bound_policy_model(const struct run *r)
{
	if (strcmp(r->policy, "clockpro") == 0 &&
	    run_has_boot_arg(r, "page_replace.clockpro_insert=port"))
		return "clockpro:insert=port";
	const struct registry_table *policies = registry_policies();

	return policies != NULL ? registry_get(policies, r->policy, "model") : NULL;
}

/* One run: pagesim's misses per model at the run's size, and the kernel. */
struct bound_row {
	const struct run *run;
	const char *run_id;
	double cache_pages, refs, distinct;
	double misses[MAX_MODELS];	/* per model of the table; NaN if not simulated */
	double majflt, pswpin, refaults;
	double data_rereads;	/* data_page_cache.rereads; NaN if not traced or lossy */
	const char *read_back_counter;	/* the workload's, lab/registry/workloads.tsv */
	double read_back;	/* its value; NaN if the run has none */
};

struct model_list {
	char *names[MAX_MODELS];
	size_t count;
};

static void models_free(struct model_list *m)
{
	for (size_t i = 0; i < m->count; i++)
		free(m->names[i]);
	m->count = 0;
}

static int models_add(struct model_list *m, const char *name, size_t len)
{
	for (size_t i = 0; i < m->count; i++)
		if (strlen(m->names[i]) == len && strncmp(m->names[i], name, len) == 0)
			return 0;
	if (m->count == MAX_MODELS) {
		fprintf(stderr, "labstat: more than %d models\n", MAX_MODELS);
		return -1;
	}
	if ((m->names[m->count] = strndup(name, len)) == NULL) {
		fprintf(stderr, "labstat: out of memory\n");
		return -1;
	}
	m->count++;
	return 0;
}

static ssize_t model_index(const struct model_list *m, const char *name)
{
	for (size_t i = 0; i < m->count; i++)
		if (strcmp(m->names[i], name) == 0)
			return (ssize_t)i;
	return -1;
}

static double number_at(json_t *root, const char *object, const char *key)
{
	json_t *v = json_object_get(object ? json_object_get(root, object) : root, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *run_id_of(const struct run *r)
{
	json_t *id = json_object_get(r->root, "run_id");

	return json_is_string(id) ? json_string_value(id) : NULL;
}

/* Splits a CSV line in place into at most max fields. */
static size_t split_csv(char *line, char **fields, size_t max)
{
	size_t n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	for (char *p = line; n < max; p++) {
		fields[n++] = p;
		p = strchr(p, ',');
		if (p == NULL)
			break;
		*p = '\0';
	}
	return n;
}

/* Reads SIM_DIR/<run_id>.csv (pagesim --format csv at one size).
 * Returns 0, 1 when the file does not exist, -1 after one error line.
 * With models->count == 0 the file's models become the list. */
static int read_sim(const char *path, struct bound_row *row, struct model_list *models)
{
	FILE *f = fopen(path, "r");
	char line[LINE_MAX_LEN];
	char *field[16];
	int col_policy = -1, col_pages = -1, col_refs = -1, col_distinct = -1, col_misses = -1;
	bool take_models = models->count == 0;
	int rc = -1;

	if (f == NULL) {
		if (errno == ENOENT)
			return 1;
		fprintf(stderr, "labstat: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (size_t m = 0; m < MAX_MODELS; m++)
		row->misses[m] = NAN;
	if (fgets(line, sizeof(line), f) == NULL)
		goto bad;
	size_t n = split_csv(line, field, 16);
	for (size_t i = 0; i < n; i++) {
		int *col = strcmp(field[i], "policy") == 0 ? &col_policy
			 : strcmp(field[i], "cache_pages") == 0 ? &col_pages
			 : strcmp(field[i], "refs") == 0 ? &col_refs
			 : strcmp(field[i], "distinct") == 0 ? &col_distinct
			 : strcmp(field[i], "misses") == 0 ? &col_misses : NULL;
		if (col != NULL)
			*col = (int)i;
	}
	if (col_policy < 0 || col_pages < 0 || col_refs < 0 || col_distinct < 0 || col_misses < 0)
		goto bad;
	int rows = 0;
	while (fgets(line, sizeof(line), f) != NULL) {
		char *end;
		if ((n = split_csv(line, field, 16)) <= (size_t)col_misses)
			goto bad;
		if (take_models && models_add(models, field[col_policy], strlen(field[col_policy])))
			goto out;
		ssize_t m = model_index(models, field[col_policy]);
		double misses = strtod(field[col_misses], &end);
		if (*end != '\0' || end == field[col_misses])
			goto bad;
		if (m >= 0)
			row->misses[m] = misses;
		row->cache_pages = strtod(field[col_pages], NULL);
		row->refs = strtod(field[col_refs], NULL);
		row->distinct = strtod(field[col_distinct], NULL);
		rows++;
	}
	if (rows == 0)
		goto bad;
	rc = 0;
	goto out;
bad:
	fprintf(stderr, "labstat: %s: not a pagesim --format csv file\n", path);
out:
	fclose(f);
	return rc;
}

/* The pages the run read back, by its workload's read_back counter: the
 * one definition RESULTS.md and lab.sh sweep use. */
static void read_back(struct bound_row *row)
{
	const struct registry_table *workloads = registry_workloads();
	const char *spec = workloads != NULL ? registry_get(workloads, row->run->workload,
							    "read_back")
					     : NULL;
	const char *missing;
	struct metric m;

	row->read_back_counter = spec != NULL ? spec : "NA";
	row->read_back = NAN;
	if (spec == NULL || metric_parse(&m, spec) != 0)
		return;
	if (metric_value(&m, row->run->root, &row->read_back, &missing) != 0)
		row->read_back = NAN;
	metric_free(&m);
}

static void kernel_counts(struct bound_row *row)
{
	json_t *root = row->run->root;
	double anon = number_at(root, "vmstat", "workingset_refault_anon");
	double file = number_at(root, "vmstat", "workingset_refault_file");

	read_back(row);
	row->majflt = number_at(root, NULL, "majflt");
	row->pswpin = number_at(root, "vmstat", "pswpin");
	row->refaults = isnan(anon) ? NAN : anon + (isnan(file) ? 0.0 : file);
	/* The data disk's pages read back, from a page-cache trace: without
	 * the system's own files, which vmstat's refaults count too.  A trace
	 * that lost events undercounts them, so it gives none. */
	row->data_rereads = number_at(root, "data_page_cache", "lost_events") == 0.0
				    ? number_at(root, "data_page_cache", "rereads") : NAN;
}

static int set_number(struct table *t, size_t r, size_t c, double v)
{
	return isfinite(v) ? table_set(t, r, c, "%.0f", v) : table_set(t, r, c, "NA");
}

/* The runs a table shows (those with a simulation), the labels of their
 * experiments' rows and columns, and the simulated models. */
struct bound_runs {
	const struct bound_row *rows;
	size_t n;
	char **row_labels, **col_labels;
	const struct model_list *models;
};

/* Cells 0 and 1 of row r: run i's row and column labels. */
static int set_labels(struct table *t, size_t r, const struct bound_runs *br, size_t i)
{
	return table_set(t, r, 0, "%s", br->row_labels[i]) ||
	       table_set(t, r, 1, "%s", br->col_labels[i]);
}

/* Row 0, the header: head[0..n) from column 0. */
static int set_header(struct table *t, const char *const *head, size_t n)
{
	int bad = 0;

	for (size_t c = 0; !bad && c < n; c++)
		bad = table_set(t, 0, c, "%s", head[c]);
	return bad;
}

/* Writes the first nrows rows of t (the header counted) unless bad, and
 * frees t; returns 0, or -1 when bad. */
static int write_table(FILE *out, enum table_format format, struct table *t, size_t nrows,
		       int first, int bad)
{
	size_t allocated = t->nrows;

	t->nrows = nrows;
	if (!bad)
		table_write(out, format, t, first);
	t->nrows = allocated;
	table_free(t);
	return bad ? -1 : 0;
}

static int runs_table(FILE *out, enum table_format format, const struct bound_runs *br, int first)
{
	const struct model_list *models = br->models;
	struct table t;
	size_t nc = 6 + models->count + 6;
	static const char *const head[] = { "workload", "policy", "run_id", "cache_pages", "refs",
					    "distinct" };
	int bad = table_init(&t, br->n + 1, nc, 3) ||
		  table_set(&t, SIZE_MAX, 0, "Misses at the run's size (pages; models include the "
			    "first touch of each page) and the kernel's counts") ||
		  set_header(&t, head, 6);

	for (size_t m = 0; !bad && m < models->count; m++)
		bad = table_set(&t, 0, 6 + m, "%s", models->names[m]);
	bad = bad || table_set(&t, 0, nc - 6, "majflt") || table_set(&t, 0, nc - 5, "pswpin") ||
	      table_set(&t, 0, nc - 4, "refaults") || table_set(&t, 0, nc - 3, "data_rereads") ||
	      table_set(&t, 0, nc - 2, "read_back_counter") || table_set(&t, 0, nc - 1, "read_back");
	for (size_t i = 0; !bad && i < br->n; i++) {
		const struct bound_row *b = &br->rows[i];
		size_t r = i + 1;
		bad = set_labels(&t, r, br, i) ||
		      table_set(&t, r, 2, "%s", b->run_id) || set_number(&t, r, 3, b->cache_pages) ||
		      set_number(&t, r, 4, b->refs) || set_number(&t, r, 5, b->distinct);
		for (size_t m = 0; !bad && m < models->count; m++)
			bad = set_number(&t, r, 6 + m, b->misses[m]);
		bad = bad || set_number(&t, r, nc - 6, b->majflt) || set_number(&t, r, nc - 5, b->pswpin) ||
		      set_number(&t, r, nc - 4, b->refaults) || set_number(&t, r, nc - 3, b->data_rereads) ||
		      table_set(&t, r, nc - 2, "%s", b->read_back_counter) ||
		      set_number(&t, r, nc - 1, b->read_back);
	}
	return write_table(out, format, &t, br->n + 1, first, bad);
}

/* Mean of the finite values; NaN when there are none. */
struct mean {
	double sum;
	size_t n;
};

static void mean_add(struct mean *m, double v)
{
	if (isfinite(v)) {
		m->sum += v;
		m->n++;
	}
}

static double mean_of(const struct mean *m)
{
	return m->n ? m->sum / (double)m->n : NAN;
}

/* The experiments of a table's runs, one after another in the order of
 * their first runs (experiment_runs_next()): a row per experiment. */
struct experiment_runs {
	const struct bound_runs *br;
	bool *done;		/* the runs of the experiments so far */
	size_t *runs;		/* this experiment's: indices into br->rows */
	size_t count;
	const char *model_name;	/* its policy's model (bound_policy_model()), or NULL */
	ssize_t model;		/* model_name's index in br->models, or -1 */
};

/* Returns 0, or -1 when out of memory (x is then still for
 * experiment_runs_free()). */
static int experiment_runs_init(struct experiment_runs *x, const struct bound_runs *br)
{
	*x = (struct experiment_runs){ .br = br };
	x->done = calloc(br->n + 1, sizeof(*x->done));
	x->runs = calloc(br->n + 1, sizeof(*x->runs));
	return x->done == NULL || x->runs == NULL ? -1 : 0;
}

/* The next experiment: the first run not yet in one and every later run
 * with its row and column labels.  false when every run is in one. */
static bool experiment_runs_next(struct experiment_runs *x)
{
	const struct bound_runs *br = x->br;
	size_t i = 0;

	while (i < br->n && x->done[i])
		i++;
	if (i == br->n)
		return false;
	x->count = 0;
	for (size_t j = i; j < br->n; j++) {
		if (x->done[j] || strcmp(br->row_labels[j], br->row_labels[i]) != 0 ||
		    strcmp(br->col_labels[j], br->col_labels[i]) != 0)
			continue;
		x->done[j] = true;
		x->runs[x->count++] = j;
	}
	x->model_name = bound_policy_model(br->rows[i].run);
	x->model = x->model_name != NULL ? model_index(br->models, x->model_name) : -1;
	return true;
}

static void experiment_runs_free(struct experiment_runs *x)
{
	free(x->done);
	free(x->runs);
}

enum { S_OPT, S_MODEL, S_PSWPIN, S_REFAULTS, S_MAJFLT, S_OPT_REF, S_MODEL_REF, S_DATA, S_COUNT };

static int summary_table(FILE *out, enum table_format format, const struct bound_runs *br,
			 int first)
{
	static const char *const head[] = { "workload", "policy", "runs", "opt", "model",
		"model_misses", "kernel_pswpin", "kernel_refaults", "kernel_majflt", "opt_refaults",
		"model_refaults", "kernel_data_rereads" };
	struct table t = { 0 };
	struct experiment_runs x;
	size_t r = 0;
	ssize_t opt = model_index(br->models, "opt");
	int bad = experiment_runs_init(&x, br) || table_init(&t, br->n + 1, 12, 2) ||
		  table_set(&t, SIZE_MAX, 0, "OPT and the policy's model at the runs' size vs "
			    "the kernel (means over runs; pages, majflt in faults)") ||
		  set_header(&t, head, 12);

	while (!bad && experiment_runs_next(&x)) {
		struct mean m[S_COUNT] = { 0 };

		for (size_t k = 0; k < x.count; k++) {
			const struct bound_row *b = &br->rows[x.runs[k]];
			double o = opt >= 0 ? b->misses[opt] : NAN;
			double mm = x.model >= 0 ? b->misses[x.model] : NAN;
			mean_add(&m[S_OPT], o);
			mean_add(&m[S_MODEL], mm);
			mean_add(&m[S_PSWPIN], b->pswpin);
			mean_add(&m[S_REFAULTS], b->refaults);
			mean_add(&m[S_MAJFLT], b->majflt);
			/* Beyond the first touch of each page: what the kernel
			 * counts as swap-ins or refaults. */
			mean_add(&m[S_OPT_REF], o - b->distinct);
			mean_add(&m[S_MODEL_REF], mm - b->distinct);
			mean_add(&m[S_DATA], b->data_rereads);
		}
		r++;
		bad = set_labels(&t, r, br, x.runs[0]) ||
		      table_set(&t, r, 2, "%zu", x.count) || set_number(&t, r, 3, mean_of(&m[S_OPT])) ||
		      table_set(&t, r, 4, "%s", x.model >= 0 ? x.model_name : "none") ||
		      set_number(&t, r, 5, mean_of(&m[S_MODEL])) ||
		      set_number(&t, r, 6, mean_of(&m[S_PSWPIN])) ||
		      set_number(&t, r, 7, mean_of(&m[S_REFAULTS])) ||
		      set_number(&t, r, 8, mean_of(&m[S_MAJFLT])) ||
		      set_number(&t, r, 9, mean_of(&m[S_OPT_REF])) ||
		      set_number(&t, r, 10, mean_of(&m[S_MODEL_REF])) ||
		      set_number(&t, r, 11, mean_of(&m[S_DATA]));
	}
	experiment_runs_free(&x);
	return write_table(out, format, &t, r + 1, first, bad);
}

/* The kernel's read_back over an experiment's runs: mean, least, most. */
struct spread {
	struct mean mean;
	double lo, hi;
};

static void spread_add(struct spread *s, double v)
{
	if (!isfinite(v))
		return;
	if (s->mean.n == 0 || v < s->lo)
		s->lo = v;
	if (s->mean.n == 0 || v > s->hi)
		s->hi = v;
	mean_add(&s->mean, v);
}

static double ratio(double a, double b)
{
	return isfinite(a) && isfinite(b) && b != 0 ? a / b : NAN;
}

static int set_ratio(struct table *t, size_t r, size_t c, double v)
{
	return isfinite(v) ? table_set(t, r, c, "%.3f", v) : table_set(t, r, c, "NA");
}

enum { W_CACHE, W_DISTINCT, W_REFS, W_MODEL_REF, W_OPT_REF, W_COUNT };

/*
 * lab.sh sweep's row per experiment at one workload size (@size_label):
 * the means of the runs' cache, distinct pages and references, the
 * kernel's pages read back (the workload's read_back counter: mean, least
 * and most), and the misses beyond the first touch of the policy's model
 * and of OPT, with the kernel's ratio to each.
 */
static int sweep_table(FILE *out, enum table_format format, const struct bound_runs *br,
		       const char *size_label)
{
	static const char *const head[] = { "workload", "policy", "size", "runs", "cache_pages",
		"distinct", "refs", "size_pct", "counter", "kernel", "kernel_min", "kernel_max",
		"model", "model_beyond", "opt_beyond", "kernel_per_model", "kernel_per_opt" };
	const size_t nc = sizeof(head) / sizeof(head[0]);
	struct table t = { 0 };
	struct experiment_runs x;
	size_t r = 0;
	ssize_t opt = model_index(br->models, "opt");
	int bad = experiment_runs_init(&x, br) || table_init(&t, br->n + 1, nc, 3) ||
		  table_set(&t, SIZE_MAX, 0, "The kernel's pages read back beside its model's "
			    "and OPT's misses beyond the first touch, at size %s", size_label) ||
		  set_header(&t, head, nc);

	while (!bad && experiment_runs_next(&x)) {
		struct mean m[W_COUNT] = { 0 };
		struct spread kernel = { 0 };

		for (size_t k = 0; k < x.count; k++) {
			const struct bound_row *b = &br->rows[x.runs[k]];
			mean_add(&m[W_CACHE], b->cache_pages);
			mean_add(&m[W_DISTINCT], b->distinct);
			mean_add(&m[W_REFS], b->refs);
			mean_add(&m[W_MODEL_REF], x.model >= 0 ? b->misses[x.model] - b->distinct : NAN);
			mean_add(&m[W_OPT_REF], opt >= 0 ? b->misses[opt] - b->distinct : NAN);
			spread_add(&kernel, b->read_back);
		}
		double k = mean_of(&kernel.mean), cache = mean_of(&m[W_CACHE]);
		double mb = mean_of(&m[W_MODEL_REF]), ob = mean_of(&m[W_OPT_REF]);
		r++;
		bad = set_labels(&t, r, br, x.runs[0]) ||
		      table_set(&t, r, 2, "%s", size_label) || table_set(&t, r, 3, "%zu", x.count) ||
		      set_number(&t, r, 4, cache) || set_number(&t, r, 5, mean_of(&m[W_DISTINCT])) ||
		      set_number(&t, r, 6, mean_of(&m[W_REFS])) ||
		      (isfinite(cache) && cache > 0
			       ? table_set(&t, r, 7, "%.1f", 100 * mean_of(&m[W_DISTINCT]) / cache)
			       : table_set(&t, r, 7, "NA")) ||
		      table_set(&t, r, 8, "%s", br->rows[x.runs[0]].read_back_counter) ||
		      set_number(&t, r, 9, k) ||
		      set_number(&t, r, 10, kernel.mean.n ? kernel.lo : NAN) ||
		      set_number(&t, r, 11, kernel.mean.n ? kernel.hi : NAN) ||
		      table_set(&t, r, 12, "%s", x.model >= 0 ? x.model_name : "none") ||
		      set_number(&t, r, 13, mb) || set_number(&t, r, 14, ob) ||
		      set_ratio(&t, r, 15, ratio(k, mb)) || set_ratio(&t, r, 16, ratio(k, ob));
	}
	experiment_runs_free(&x);
	return write_table(out, format, &t, r + 1, 1, bad);
}

static int parse_models(struct model_list *models, const char *list)
{
	for (const char *p = list; p != NULL && *p;) {
		size_t len = strcspn(p, ",");
		if (len > 0 && models_add(models, p, len) != 0)
			return -1;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

int bound_write(FILE *out, enum table_format format, const struct run_set *runs,
		const struct grouping *g, const struct bound_options *o)
{
	struct model_list models = { 0 };
	struct bound_row *rows = calloc(runs->count + 1, sizeof(*rows));
	char **row_labels = NULL, **col_labels = NULL, **rl = NULL, **cl = NULL;
	size_t n = 0;
	int rc = -1;

	if (rows == NULL || registry_policies() == NULL || parse_models(&models, o->models) != 0 ||
	    grouping_labels(g, runs, &row_labels, &col_labels) != 0)
		goto out;
	rl = calloc(runs->count + 1, sizeof(*rl));
	cl = calloc(runs->count + 1, sizeof(*cl));
	if (rl == NULL || cl == NULL)
		goto out;
	for (size_t i = 0; i < runs->count; i++) {
		const struct run *r = &runs->runs[i];
		const char *id = run_id_of(r);
		if (id == NULL || !(number_at(r->root, NULL, "mem_available_pages") > 0)) {
			fprintf(stderr, "labstat: note: %s: no %s, left out\n", r->path,
				id == NULL ? "run_id" : "mem_available_pages");
			continue;
		}
		size_t len = strlen(o->sim_dir) + strlen(id) + 6;
		char *path = malloc(len);
		if (path == NULL)
			goto out;
		snprintf(path, len, "%s/%s.csv", o->sim_dir, id);
		struct bound_row *b = &rows[n];
		b->run = r;
		b->run_id = id;
		int s = read_sim(path, b, &models);
		free(path);
		if (s < 0)
			goto out;
		if (s > 0) {
			fprintf(stderr, "labstat: note: %s: no simulation (no refs.bin), left out\n", r->path);
			continue;
		}
		kernel_counts(b);
		rl[n] = row_labels[i];
		cl[n] = col_labels[i];
		n++;
	}
	if (n == 0) {
		fprintf(stderr, "labstat: no run with a simulation in %s\n", o->sim_dir);
		rc = 2;
		goto out;
	}
	const struct bound_runs br = { rows, n, rl, cl, &models };
	rc = 0;
	if (o->tables & BOUND_SWEEP)
		rc = sweep_table(out, format, &br, o->sweep_size);
	if (rc == 0 && (o->tables & BOUND_RUNS))
		rc = runs_table(out, format, &br, 1);
	if (rc == 0 && (o->tables & BOUND_SUMMARY))
		rc = summary_table(out, format, &br, !(o->tables & BOUND_RUNS));
	if (rc != 0)
		fprintf(stderr, "labstat: out of memory\n");
out:
	if (rc == -1 && rows == NULL)
		fprintf(stderr, "labstat: out of memory\n");
	free(rl);
	free(cl);
	grouping_labels_free(runs, row_labels, col_labels);
	models_free(&models);
	free(rows);
	return rc;
}
