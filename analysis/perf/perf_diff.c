/* perf-diff: the kernel symbols whose CPU time differs most between two
 * sets of profiled runs (two policies, say), as perf diff compares two
 * profiles, with the folded stacks through each symbol for a flame graph.
 *
 *   perf-diff [--top N] [--stacks DIR] [--format csv|html] [--link-prefix P]
 *             --label-a A -a RUN... --label-b B -b RUN...
 *
 * RUN is a run directory of lab.sh run --trace perf: its perf/folded.txt
 * and result.json (perf.cpus, perf.samples, guest_wall_s: metrics.h's
 * seconds per sample).  A symbol's time in a set is the mean over its
 * runs of the symbol's samples x the run's seconds per sample, self (its
 * own code) and children (with what it calls); rows are the top N by the
 * difference in self time, largest first.  --stacks writes, per row and
 * set, the set's folded stacks that pass through the symbol
 * (DIR/NN-SYMBOL-SET.folded, counts summed over the set's runs; none
 * when no stack of the set holds it).
 * Exit: 0, 1 error, 2 usage, 3 a run without a readable profile. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../trace/atomic_output.h"
#include "classify.h"
#include "folded.h"
#include "metrics.h"
#include "profile.h"
#include "top_option.h"

#define EX_INPUT 3
#define MAX_RUNS 256

struct set {
	const char *label;
	const char *runs[MAX_RUNS];
	int nruns;
	struct strmap stacks;	/* every run's, counts summed */
	struct strmap self_ns, children_ns;	/* mean over the runs */
};

struct options {
	struct set set[2];
	int top;
	const char *stacks_dir, *link_prefix;
	int html;
};

static void usage(FILE *out)
{
	fputs("usage: perf-diff [--top N] [--stacks DIR] [--format csv|html] [--link-prefix P]\n"
	      "                 --label-a A -a RUN... --label-b B -b RUN...\n"
	      "The top N (default 15) kernel symbols by the difference in self CPU time\n"
	      "(mean seconds per run) between the runs of set A and of set B, with their\n"
	      "children time. RUN: a run directory with perf/folded.txt (lab.sh run --trace\n"
	      "perf). --stacks DIR writes each row's folded stacks per set into DIR;\n"
	      "--format html writes a table linking them (hrefs prefixed with P).\n"
	      "Exit: 0 ok, 1 error, 2 usage, 3 a run has no readable profile.\n", out);
}

static int label_ok(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (!(*s == '_' || *s == '.' || *s == '-' || *s == '+' ||
		      (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
			return 0;
	return 1;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "top", required_argument, NULL, 't' }, { "stacks", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' }, { "link-prefix", required_argument, NULL, 'p' },
		{ "label-a", required_argument, NULL, 'A' }, { "label-b", required_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	int opt;

	memset(o, 0, sizeof(*o));
	opterr = 0;	/* one line of our own for a bad option */
	o->top = 15;
	o->link_prefix = "";
	while ((opt = getopt_long(argc, argv, "a:b:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'a':
		case 'b': {
			struct set *s = &o->set[opt == 'b'];
			if (s->nruns == MAX_RUNS) {
				fprintf(stderr, "perf-diff: at most %d runs a set\n", MAX_RUNS);
				return 2;
			}
			s->runs[s->nruns++] = optarg;
			break;
		}
		case 'A': o->set[0].label = optarg; break;
		case 'B': o->set[1].label = optarg; break;
		case 't':
			if (top_option_parse("perf-diff", optarg, 10000, &o->top) != 0)
				return 2;
			break;
		case 's': o->stacks_dir = optarg; break;
		case 'p': o->link_prefix = optarg; break;
		case 'f':
			if (strcmp(optarg, "csv") != 0 && strcmp(optarg, "html") != 0) {
				fprintf(stderr, "perf-diff: bad --format '%s' (csv, html)\n", optarg);
				return 2;
			}
			o->html = strcmp(optarg, "html") == 0;
			break;
		case 'h': usage(stdout); exit(0);
		default:
			fprintf(stderr, "perf-diff: bad option '%s' (see perf-diff --help)\n", argv[optind - 1]);
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "perf-diff: unexpected argument '%s' (runs go after -a or -b)\n", argv[optind]);
		return 2;
	}
	for (int k = 0; k < 2; k++) {
		if (o->set[k].label == NULL || !label_ok(o->set[k].label) || o->set[k].nruns == 0) {
			fprintf(stderr, "perf-diff: need --label-%c (letters, digits, _ . + -) and its runs (-%c RUN)\n",
				'a' + k, 'a' + k);
			return 2;
		}
	}
	if (strcmp(o->set[0].label, o->set[1].label) == 0) {
		fprintf(stderr, "perf-diff: the two sets need different labels\n");
		return 2;
	}
	return 0;
}

/* Adds count x scale / n (nanoseconds) to map[key]. */
static int add_scaled(struct strmap *map, const char *key, uint64_t count, double scale)
{
	return strmap_add(map, key, (uint64_t)llround((double)count * scale));
}

/* Reads one run into its set.  Returns 0, 1 (memory) or EX_INPUT. */
static int add_run(struct set *s, const char *dir)
{
	char path[4096], err[256];
	json_error_t jerr;
	struct strmap stacks;
	struct profile p;
	int status = EX_INPUT;

	snprintf(path, sizeof(path), "%s/result.json", dir);
	json_t *result = json_load_file(path, 0, &jerr);
	double sps = result ? perf_seconds_per_sample(result) : -1;
	json_decref(result);
	if (sps < 0) {
		fprintf(stderr, "perf-diff: %s: no perf metrics (perf.cpus, perf.samples, guest_wall_s)\n", path);
		return EX_INPUT;
	}
	snprintf(path, sizeof(path), "%s/perf/folded.txt", dir);
	FILE *in = fopen(path, "r");
	if (in == NULL) {
		fprintf(stderr, "perf-diff: %s: %s\n", path, strerror(errno));
		return EX_INPUT;
	}
	strmap_init(&stacks);
	int rc = folded_read(in, &stacks, err, sizeof(err));
	fclose(in);
	if (rc != 0) {
		fprintf(stderr, "perf-diff: %s: %s\n", path, err);
		strmap_free(&stacks);
		return EX_INPUT;
	}
	status = 1;
	if (profile_build(&p, &stacks) != 0)
		goto oom;
	double scale = sps * 1e9 / s->nruns;
	for (size_t i = 0; i < p.children.cap; i++) {
		const struct strmap_entry *e = &p.children.slots[i];
		if (e->key != NULL &&
		    (add_scaled(&s->children_ns, e->key, e->count, scale) ||
		     add_scaled(&s->self_ns, e->key, strmap_get(&p.self, e->key), scale)))
			goto oom_profile;
	}
	for (size_t i = 0; i < stacks.cap; i++)
		if (stacks.slots[i].key != NULL &&
		    strmap_add(&s->stacks, stacks.slots[i].key, stacks.slots[i].count))
			goto oom_profile;
	status = 0;
oom_profile:
	profile_free(&p);
oom:
	if (status != 0)
		fprintf(stderr, "perf-diff: out of memory\n");
	strmap_free(&stacks);
	return status;
}

struct row {
	const char *sym;
	double self[2], children[2];	/* seconds */
};

static int by_delta(const void *x, const void *y)
{
	const struct row *a = x, *b = y;
	double da = fabs(a->self[0] - a->self[1]), db = fabs(b->self[0] - b->self[1]);

	if (da != db)
		return da > db ? -1 : 1;
	return strcmp(a->sym, b->sym);
}

/* The stacks file's name for row r of set k: NN-SYMBOL-LABEL.folded. */
static void stacks_name(char *buf, size_t len, int rank, const char *sym, const char *label)
{
	snprintf(buf, len, "%02d-%s-%s.folded", rank, sym, label);
	for (char *c = buf; *c; c++)
		if (*c == '/')
			*c = '_';
}

static int write_stacks(const struct options *o, int rank, const struct row *r)
{
	char name[512], path[4096];

	for (int k = 0; k < 2; k++) {
		struct strmap sub;
		struct atomic_output out;

		if (r->children[k] == 0)
			continue;	/* no stack of this set holds it */
		strmap_init(&sub);
		stacks_name(name, sizeof(name), rank, r->sym, o->set[k].label);
		snprintf(path, sizeof(path), "%s/%s", o->stacks_dir, name);
		if (stacks_with_symbol(&sub, &o->set[k].stacks, r->sym) != 0) {
			fprintf(stderr, "perf-diff: out of memory\n");
			strmap_free(&sub);
			return 1;
		}
		if (atomic_output_open(&out, path) != 0) {
			fprintf(stderr, "perf-diff: %s: %s\n", path, strerror(errno));
			strmap_free(&sub);
			return 1;
		}
		int failed = folded_write(out.stream, &sub) != 0;
		strmap_free(&sub);
		if (failed) {
			atomic_output_abort(&out);
			fprintf(stderr, "perf-diff: out of memory\n");
			return 1;
		}
		if (atomic_output_commit(&out) != 0) {
			fprintf(stderr, "perf-diff: %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	return 0;
}

static void write_csv(FILE *out, const struct options *o, const struct row *rows, size_t n)
{
	char a[512], b[512];

	fputs("rank,symbol,a,b,a_self_s,b_self_s,delta_self_s,a_children_s,b_children_s,"
	      "delta_children_s,a_stacks,b_stacks\n", out);
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		stacks_name(a, sizeof(a), (int)i + 1, r->sym, o->set[0].label);
		stacks_name(b, sizeof(b), (int)i + 1, r->sym, o->set[1].label);
		fprintf(out, "%zu,%s,%s,%s,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%s,%s\n", i + 1, r->sym,
			o->set[0].label, o->set[1].label, r->self[0], r->self[1], r->self[0] - r->self[1],
			r->children[0], r->children[1], r->children[0] - r->children[1],
			o->stacks_dir && r->children[0] > 0 ? a : "",
			o->stacks_dir && r->children[1] > 0 ? b : "");
	}
}

static void write_html(FILE *out, const struct options *o, const struct row *rows, size_t n)
{
	const char *A = o->set[0].label, *B = o->set[1].label;
	char name[512];

	fprintf(out, "<table class=\"perf-diff\">\n<caption>Top %zu kernel symbols by the difference "
		"in self CPU time, %s (n=%d) against %s (n=%d): mean seconds of guest CPU per run"
		"%s</caption>\n", n, A, o->set[0].nruns, B, o->set[1].nruns,
		o->stacks_dir ? "; each set's folded stacks through the symbol are linked" : "");
	fprintf(out, "<tr><th>#</th><th class=\"l\">symbol</th><th>%s self</th><th>%s self</th>"
		"<th>&Delta; self</th><th>%s children</th><th>%s children</th><th>&Delta; children</th>",
		A, B, A, B);
	fputs(o->stacks_dir ? "<th class=\"l\">stacks</th></tr>\n" : "</tr>\n", out);
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		fprintf(out, "<tr><td>%zu</td><td class=\"l\"><code>%s</code></td><td>%.3f</td><td>%.3f</td>"
			"<td>%+.3f</td><td>%.3f</td><td>%.3f</td><td>%+.3f</td>", i + 1, r->sym, r->self[0],
			r->self[1], r->self[0] - r->self[1], r->children[0], r->children[1],
			r->children[0] - r->children[1]);
		if (o->stacks_dir) {
			fputs("<td class=\"l\">", out);
			for (int k = 0; k < 2; k++) {
				stacks_name(name, sizeof(name), (int)i + 1, r->sym, o->set[k].label);
				if (r->children[k] > 0)
					fprintf(out, "%s<a href=\"%s%s\">%s</a>", k ? ", " : "", o->link_prefix,
						name, o->set[k].label);
				else
					fprintf(out, "%s(none in %s)", k ? ", " : "", o->set[k].label);
			}
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

int main(int argc, char **argv)
{
	struct options o;
	struct row *rows = NULL;
	size_t nrows = 0;
	int status = parse_options(argc, argv, &o);

	if (status != 0)
		return status;
	if (classify_load() != 0)
		return 1;
	for (int k = 0; k < 2; k++) {
		strmap_init(&o.set[k].stacks);
		strmap_init(&o.set[k].self_ns);
		strmap_init(&o.set[k].children_ns);
	}
	for (int k = 0; k < 2 && status == 0; k++)
		for (int i = 0; i < o.set[k].nruns && status == 0; i++)
			status = add_run(&o.set[k], o.set[k].runs[i]);
	if (status != 0)
		goto done;
	status = 1;
	/* Every symbol either set saw: children holds them all. */
	rows = calloc(o.set[0].children_ns.len + o.set[1].children_ns.len + 1, sizeof(*rows));
	if (rows == NULL)
		goto oom;
	for (int k = 0; k < 2; k++) {
		const struct strmap *m = &o.set[k].children_ns;
		for (size_t i = 0; i < m->cap; i++) {
			const char *sym = m->slots[i].key;
			if (sym == NULL || (k == 1 && strmap_get(&o.set[0].children_ns, sym) != 0))
				continue;
			struct row *r = &rows[nrows++];
			r->sym = sym;
			for (int s = 0; s < 2; s++) {
				r->self[s] = (double)strmap_get(&o.set[s].self_ns, sym) / 1e9;
				r->children[s] = (double)strmap_get(&o.set[s].children_ns, sym) / 1e9;
			}
		}
	}
	qsort(rows, nrows, sizeof(*rows), by_delta);
	if (nrows > (size_t)o.top)
		nrows = (size_t)o.top;
	for (size_t i = 0; i < nrows && o.stacks_dir; i++)
		if (write_stacks(&o, (int)i + 1, &rows[i]) != 0)
			goto done;
	if (o.html)
		write_html(stdout, &o, rows, nrows);
	else
		write_csv(stdout, &o, rows, nrows);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "perf-diff: writing stdout: %s\n", strerror(errno));
		goto done;
	}
	status = 0;
	goto done;
oom:
	fprintf(stderr, "perf-diff: out of memory\n");
done:
	free(rows);
	for (int k = 0; k < 2; k++) {
		strmap_free(&o.set[k].stacks);
		strmap_free(&o.set[k].self_ns);
		strmap_free(&o.set[k].children_ns);
	}
	return status;
}
