// SPDX-License-Identifier: GPL-2.0
/* Comparing native paths, and the Markdown report: see report.h. */
#define _DEFAULT_SOURCE
#include "report.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "normalise.h"
#include "xalloc.h"

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A sorted copy of V (the strings are shared, not copied). */
static char **sorted(char **v, size_t n)
{
	char **s = xcalloc(n, sizeof(*s));

	if (n)
		memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), by_text);
	return s;
}

/*
 * Walk the multisets A and B (sorted); call EACH(text, count in B minus
 * count in A, arg) for every text whose counts differ.  Returns the sum
 * of the positive differences.
 */
static size_t multiset_diff(char **a, size_t na, char **b, size_t nb,
			    void (*each)(const char *, long, void *), void *arg)
{
	size_t i = 0, j = 0, more = 0;

	while (i < na || j < nb) {
		const char *t;
		long ca = 0, cb = 0;

		if (j >= nb || (i < na && strcmp(a[i], b[j]) <= 0))
			t = a[i];
		else
			t = b[j];
		while (i < na && !strcmp(a[i], t))
			i++, ca++;
		while (j < nb && !strcmp(b[j], t))
			j++, cb++;
		if (cb != ca && each)
			each(t, cb - ca, arg);
		if (cb > ca)
			more += (size_t)(cb - ca);
	}
	return more;
}

static size_t diff_of(char **a, size_t na, char **b, size_t nb,
		      void (*each)(const char *, long, void *), void *arg)
{
	char **sa = sorted(a, na), **sb = sorted(b, nb);
	size_t more = multiset_diff(sa, na, sb, nb, each, arg);

	free(sa);
	free(sb);
	return more;
}

/* The work shapes of P's instructions (normalise.h); *N of them. */
static char **work_shapes(const struct native_path *p, size_t *n)
{
	char **v = xcalloc(p->n, sizeof(*v));

	*n = 0;
	for (size_t i = 0; i < p->n; i++) {
		char *s = work_shape(p->insns[i]);

		if (s)
			v[(*n)++] = s;
	}
	return v;
}

static void free_shapes(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

struct cost_verdict cost_judge(const struct cost_row *row, long tolerance)
{
	const struct native_path *a = &row->path[0], *b = &row->path[1];
	struct cost_verdict v;
	size_t na, nb;
	char **sa = work_shapes(a, &na), **sb = work_shapes(b, &nb);

	v.added = (long)diff_of(sa, na, sb, nb, NULL, NULL);
	v.net = (long)b->n - (long)a->n;
	free_shapes(sa, na);
	free_shapes(sb, nb);
	v.sites_added = (long)b->sites - (long)a->sites;
	v.new_calls = diff_of(a->calls, a->ncalls, b->calls, b->ncalls, NULL, NULL);
	v.longest_added = (long)b->longest_work - (long)a->longest_work;
	v.shortest_added = (long)b->shortest_work - (long)a->shortest_work;
	v.tolerance = tolerance;
	v.pass = row->cold ||
		 (v.longest_added <= tolerance && v.shortest_added <= tolerance &&
		  !v.new_calls && (row->jump_labels || v.sites_added <= 0));
	return v;
}

void report_table_head(FILE *out)
{
	fprintf(out, "| function | vanilla reachable | lab reachable | added (sites excluded) | net difference (sites excluded) | static-branch sites added | work on the longest way, vanilla / lab | on the shortest | verdict |\n");
	fprintf(out, "|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
}

struct reasons {
	FILE *out;
	const char *sep;	/* ": " before the first reason, ", " after */
};

static void reason(struct reasons *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void reason(struct reasons *r, const char *fmt, ...)
{
	va_list ap;

	fputs(r->sep, r->out);
	va_start(ap, fmt);
	vfprintf(r->out, fmt, ap);
	va_end(ap);
	r->sep = ", ";
}

static void list_new_call(const char *t, long d, void *arg)
{
	if (d > 0)
		reason(arg, "new call: %s", t);
}

void report_table_row(FILE *out, const struct cost_row *row,
		      const struct cost_verdict *v)
{
	const struct native_path *a = &row->path[0], *b = &row->path[1];
	struct reasons r = { out, ": " };

	fprintf(out, "| %s | %zu | %zu | %ld | %+ld | %+ld | %zu / %zu | %zu / %zu | ",
		row->label, a->n + a->site_insns, b->n + b->site_insns, v->added,
		v->net, v->sites_added, a->longest_work, b->longest_work,
		a->shortest_work, b->shortest_work);
	if (row->cold) {
		fprintf(out, "not judged: off the hot paths (--cold) |\n");
		return;
	}
	if (v->pass) {
		fprintf(out, "ok |\n");
		return;
	}
	fprintf(out, "**FAIL**");
	if (v->longest_added > v->tolerance)
		reason(&r, "%ld instruction(s) added on the longest way",
		       v->longest_added);
	if (v->shortest_added > v->tolerance)
		reason(&r, "%ld instruction(s) added on the shortest way",
		       v->shortest_added);
	if (v->new_calls)
		diff_of(a->calls, a->ncalls, b->calls, b->ncalls, list_new_call,
			&r);
	if (!row->jump_labels && v->sites_added > 0)
		reason(&r, "%ld key test(s): loads and tests, not jump labels",
		       v->sites_added);
	fprintf(out, " |\n");
}

static void print_line(const char *t, long d, void *arg)
{
	FILE *out = arg;

	if (d > 1 || d < -1)
		fprintf(out, "%c %s   (x%ld)\n", d > 0 ? '+' : '-', t, d > 0 ? d : -d);
	else
		fprintf(out, "%c %s\n", d > 0 ? '+' : '-', t);
}

static void print_site_line(const char *t, long d, void *arg)
{
	FILE *out = arg;

	fprintf(out, "%c [site] %s", d > 0 ? '+' : '-', t);
	if (d > 1 || d < -1)
		fprintf(out, "   (x%ld)", d > 0 ? d : -d);
	fprintf(out, "\n");
}

static void print_added_shape(const char *t, long d, void *arg)
{
	FILE *out = arg;

	if (d <= 0)
		return;
	if (d > 1)
		fprintf(out, "+ %s   (x%ld)\n", t, d);
	else
		fprintf(out, "+ %s\n", t);
}

/* The work shapes of the N texts of a way. */
static char **way_shapes(char **way, size_t n)
{
	char **v = xcalloc(n, sizeof(*v));

	for (size_t i = 0; i < n; i++) {
		v[i] = work_shape(way[i]);
		if (!v[i])
			v[i] = xstrdup(way[i]);
	}
	return v;
}

/* How the longest and the shortest ways differ, where they do. */
static void report_ways(FILE *out, const struct cost_row *row)
{
	const struct native_path *a = &row->path[0], *b = &row->path[1];
	static const char *const name[] = { "longest", "shortest" };
	char **ways[2][2] = { { a->longest, b->longest }, { a->shortest, b->shortest } };
	size_t lens[2][2] = { { a->longest_work, b->longest_work },
			      { a->shortest_work, b->shortest_work } };

	for (int k = 0; k < 2; k++) {
		char **sa, **sb;

		sa = way_shapes(ways[k][0], lens[k][0]);
		sb = way_shapes(ways[k][1], lens[k][1]);
		if (diff_of(sa, lens[k][0], sb, lens[k][1], NULL, NULL) ||
		    lens[k][0] != lens[k][1]) {
			fprintf(out, "\nThe %s way, lab against vanilla (work, numbers as N):\n\n```diff\n",
				name[k]);
			diff_of(sa, lens[k][0], sb, lens[k][1], print_line, out);
			fprintf(out, "```\n");
		}
		free_shapes(sa, lens[k][0]);
		free_shapes(sb, lens[k][1]);
	}
}

void report_diff(FILE *out, const struct cost_row *row)
{
	const struct native_path *a = &row->path[0], *b = &row->path[1];
	size_t more = diff_of(a->insns, a->n, b->insns, b->n, NULL, NULL);
	size_t fewer = more + a->n - b->n;	/* == removed lines' total */
	size_t sites = diff_of(a->site_texts, a->site_insns, b->site_texts,
			       b->site_insns, NULL, NULL);
	size_t sites_gone = sites + a->site_insns - b->site_insns;
	size_t na, nb;
	char **sa, **sb;

	if (!more && !fewer && !sites && !sites_gone)
		return;
	fprintf(out, "\n#### %s: %zu instruction(s) only in lab, %zu only in vanilla\n\n",
		row->label, more, fewer);
	fprintf(out, "```diff\n");
	diff_of(a->site_texts, a->site_insns, b->site_texts, b->site_insns,
		print_site_line, out);
	diff_of(a->insns, a->n, b->insns, b->n, print_line, out);
	fprintf(out, "```\n");
	report_ways(out, row);
	if (!more)
		return;
	/* what the verdict counted: work shapes only lab has more of */
	sa = work_shapes(a, &na);
	sb = work_shapes(b, &nb);
	if (diff_of(sa, na, sb, nb, NULL, NULL)) {
		fprintf(out, "\nCounted as added (numbers as N):\n\n```diff\n");
		diff_of(sa, na, sb, nb, print_added_shape, out);
		fprintf(out, "```\n");
	}
	free_shapes(sa, na);
	free_shapes(sb, nb);
}
