// SPDX-License-Identifier: GPL-2.0
/* The native path of a function: see native_path.h. */
#define _DEFAULT_SOURCE
#include "native_path.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "normalise.h"
#include "xalloc.h"

enum key_role {
	ROLE_NONE,
	ROLE_PART,	/* the load or the test of a key test */
	ROLE_FALL,	/* its jcc, which falls through while the key is off */
	ROLE_TAKEN,	/* its jcc, which jumps while the key is off */
};

#define KEY_TEST_WINDOW 6	/* instructions from the load to the jcc */
#define SWITCH_MAX 4096		/* entries of a switch table */

/* A key of IMG that is off on the native path (see native_path.h). */
static int key_is_off(const struct elf_image *img, const struct elf_image *ref,
		      uint64_t key, int need_data)
{
	const struct elf_symbol *s = elf_symbol_at(img, key);
	size_t first;

	if (!s)
		return 0;
	if (!strncmp(s->name, "__tracepoint_", 13))
		return !need_data || key - s->addr == 8;
	if (need_data && s->func)
		return 0;
	return img != ref && !elf_symbols_named(ref, s->name, &first);
}

static int op_is(const struct insn *in, const char *name)
{
	size_t len;
	const char *op = insn_op(in, &len);

	return strlen(name) == len && !strncmp(op, name, len);
}

static int op_starts(const struct insn *in, const char *prefix)
{
	size_t len;
	const char *op = insn_op(in, &len);

	return len >= strlen(prefix) && !strncmp(op, prefix, strlen(prefix));
}

/* "%eax", "%rax", "%ax", "%al" -> "a"; "%esi", "%sil" -> "si"; "%r8d" -> "r8". */
static void reg_family(const char *reg, char *out, size_t outlen)
{
	char r[8];
	size_t n;

	if (*reg == '%')
		reg++;
	n = strcspn(reg, ",) ");
	if (n >= sizeof(r))
		n = sizeof(r) - 1;
	memcpy(r, reg, n);
	r[n] = '\0';
	if (r[0] == 'r' && isdigit((unsigned char)r[1])) {
		r[1 + strspn(r + 1, "0123456789")] = '\0';
	} else {
		if (n == 3 && (r[0] == 'r' || r[0] == 'e'))
			memmove(r, r + 1, n--);
		else if (n == 3 && r[2] == 'l')	/* sil, dil, bpl, spl */
			r[--n] = '\0';
		if (n == 2 && strchr("abcd", r[0]) && strchr("xlh", r[1]))
			r[1] = '\0';
	}
	snprintf(out, outlen, "%s", r);
}

/* The destination operand of IN's text (after the last comma), or "". */
static const char *destination(const struct insn *in)
{
	const char *c = strrchr(in->text, ',');

	return c ? c + 1 : "";
}

static int writes_family(const struct insn *in, const char *fam)
{
	char f[16];
	const char *d = destination(in);

	if (op_is(in, "pop"))
		d = strchr(in->text, '%') ? strchr(in->text, '%') : "";
	if (*d != '%')
		return 0;
	reg_family(d, f, sizeof(f));
	return !strcmp(f, fam);
}

/*
 * Leaves the flags alone (what the compiler schedules between a key's load,
 * its test and the jump): moves, lea, push and pop, cmov and setcc (which
 * read the flags but do not write them), NOPs.
 */
static int flag_neutral(const struct insn *in)
{
	if (in->kind != INSN_PLAIN)
		return 0;
	return (op_starts(in, "mov") && !op_starts(in, "movs")) ||
	       op_starts(in, "movs") /* movslq, movsbl: sign extension */ ||
	       op_is(in, "lea") || op_is(in, "push") || op_is(in, "pop") ||
	       op_starts(in, "cmov") || op_starts(in, "set") ||
	       op_starts(in, "nop") || !strcmp(in->text, "xchg %ax,%ax");
}

/* From V[i], the key's load, find the test and the jcc; mark them. */
static void match_key_test(const struct insn *v, size_t n, size_t i,
			   unsigned char *role)
{
	const struct insn *load = &v[i];
	char fam[16] = "";
	size_t test = 0, j;
	int cmp = op_is(load, "cmpl") || op_is(load, "cmp");

	if (cmp) {
		if (strncmp(insn_op(load, &j) + j, " $0x0,", 6))
			return;
	} else if (op_is(load, "mov") || op_is(load, "movl")) {
		const char *d = destination(load);

		/* a 32-bit register: atomic_read() of the key's count */
		if (*d != '%' || !(d[1] == 'e' || (d[1] == 'r' &&
						   d[strlen(d) - 1] == 'd')))
			return;
		reg_family(d, fam, sizeof(fam));
	} else {
		return;
	}
	for (j = i + 1; j < n && j <= i + KEY_TEST_WINDOW; j++) {
		const struct insn *in = &v[j];

		if (in->addr != v[j - 1].next)
			return;
		if (!cmp && !test) {
			char a[16], b[16];
			const char *c = strchr(in->text, ',');

			if (op_is(in, "test") && c && in->text[5] == '%') {
				reg_family(in->text + 5, a, sizeof(a));
				reg_family(c + 1, b, sizeof(b));
				if (!strcmp(a, fam) && !strcmp(b, fam)) {
					test = j;
					continue;
				}
			}
			/* before the test, the flags do not matter yet */
			if (in->kind != INSN_PLAIN || writes_family(in, fam))
				return;
			continue;
		}
		if (in->kind == INSN_JCC) {
			if (!op_is(in, "jg") && !op_is(in, "jle"))
				return;
			role[i] = ROLE_PART;
			if (test)
				role[test] = ROLE_PART;
			role[j] = op_is(in, "jg") ? ROLE_FALL : ROLE_TAKEN;
			return;
		}
		if (!flag_neutral(in))
			return;
	}
}

void key_tests_find(const struct elf_image *img, const struct elf_image *ref,
		    const struct insn_list *list, struct key_tests *out)
{
	out->n = list->n;
	out->role = xcalloc(list->n, 1);
	if (img->has_jump_table)
		return;
	for (size_t i = 0; i < list->n; i++) {
		const struct insn *in = &list->v[i];

		if (in->kind != INSN_PLAIN || !in->has_ref ||
		    !key_is_off(img, ref, in->ref, 1))
			continue;
		match_key_test(list->v, list->n, i, out->role);
	}
}

void key_tests_free(struct key_tests *k)
{
	free(k->role);
	memset(k, 0, sizeof(*k));
}

static int inside(const struct function_unit *u, uint64_t addr)
{
	for (size_t i = 0; i < u->nranges; i++)
		if (addr >= u->ranges[i].lo && addr < u->ranges[i].hi)
			return 1;
	return 0;
}

struct edge {
	size_t from, to;
};

struct walk {
	const struct insn_list *list;
	const struct function_unit *u;
	size_t *stack;
	size_t depth, cap;
	unsigned char *seen;
	unsigned char *work;	/* per instruction: 1 if it does work */
	const char **text;	/* per instruction: its text in the path */
	size_t cur;		/* the instruction being visited */
	struct edge *edges;
	size_t nedges, edges_cap;
};

#define NO_INSN ((size_t)-1)

static void add_edge(struct walk *w, size_t from, size_t to)
{
	if (w->nedges == w->edges_cap) {
		w->edges_cap = w->edges_cap ? 2 * w->edges_cap : 256;
		w->edges = xrealloc(w->edges, w->edges_cap * sizeof(*w->edges));
	}
	w->edges[w->nedges++] = (struct edge){ from, to };
}

static void push(struct walk *w, uint64_t addr)
{
	const struct insn *in;
	size_t i;

	if (!inside(w->u, addr) || !(in = insn_at(w->list, addr)))
		return;
	i = (size_t)(in - w->list->v);
	if (w->cur != NO_INSN)
		add_edge(w, w->cur, i);
	if (w->depth == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 256;
		w->stack = xrealloc(w->stack, w->cap * sizeof(*w->stack));
	}
	w->stack[w->depth++] = i;
}

static void add_text(char ***v, size_t *n, char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

/* A jmp *DISP(,%reg,8): push the table's entries that land in U. */
static int follow_switch(const struct elf_image *img, struct walk *w,
			 const struct insn *in)
{
	const char *star = strchr(in->text, '*');
	long long disp;
	uint64_t table;
	char *end;
	size_t i;

	if (!star || !strstr(star, "(,%") || !strstr(star, ",8)"))
		return -1;
	disp = strtoll(star + 1, &end, 16);
	if (end == star + 1 || *end != '(')
		return -1;
	table = (uint64_t)disp;
	for (i = 0; i < SWITCH_MAX; i++) {
		uint64_t target;

		if (elf_read(img, table + 8 * i, &target, 8) ||
		    !inside(w->u, target))
			break;
		push(w, target);
	}
	return i ? 0 : -1;
}

static void visit_site(const struct elf_image *img, const struct elf_image *ref,
		       struct walk *w, const struct insn *in,
		       const struct jump_site *site, struct native_path *out)
{
	out->sites++;
	add_text(&out->site_texts, &out->site_insns, normalise(img, in, 1));
	if (!key_is_off(img, ref, site->key, 0)) {
		push(w, in->next);
		push(w, site->target);
	} else if (in->kind == INSN_JUMP) {
		push(w, site->target);
	} else {
		push(w, in->next);
	}
}

static void visit(const struct elf_image *img, const struct elf_image *ref,
		  const struct key_tests *kt, struct walk *w, size_t i,
		  struct native_path *out)
{
	const struct insn *in = &w->list->v[i];
	const struct jump_site *site = elf_site_at(img, in->addr);

	if (site) {
		visit_site(img, ref, w, in, site, out);
		return;
	}
	switch (kt->role[i]) {
	case ROLE_PART:
		add_text(&out->site_texts, &out->site_insns, normalise(img, in, 1));
		push(w, in->next);
		return;
	case ROLE_FALL:
	case ROLE_TAKEN:
		out->sites++;
		add_text(&out->site_texts, &out->site_insns, normalise(img, in, 1));
		push(w, kt->role[i] == ROLE_FALL ? in->next : in->ref);
		return;
	default:
		break;
	}
	add_text(&out->insns, &out->n,
		 normalise(img, in, in->has_ref && inside(w->u, in->ref)));
	{
		char *shape = work_shape(out->insns[out->n - 1]);

		w->work[i] = shape != NULL;
		w->text[i] = out->insns[out->n - 1];
		free(shape);
	}
	switch (in->kind) {
	case INSN_PLAIN:
		push(w, in->next);
		break;
	case INSN_CALL:
	case INSN_ICALL:
		add_text(&out->calls, &out->ncalls, callee_name(img, in));
		push(w, in->next);
		break;
	case INSN_JUMP:
		if (in->has_ref && inside(w->u, in->ref))
			push(w, in->ref);
		else
			add_text(&out->calls, &out->ncalls, callee_name(img, in));
		break;
	case INSN_JCC:
		push(w, in->next);
		if (in->has_ref)
			push(w, in->ref);
		break;
	case INSN_IJUMP:
		if (follow_switch(img, w, in))
			add_text(&out->calls, &out->ncalls, callee_name(img, in));
		break;
	case INSN_STOP:
		break;
	}
}

static int by_from(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	return (x->from > y->from) - (x->from < y->from);
}

/* S, finished, is a successor of V: keep it if its way is V's longest or shortest. */
static void take_successor(size_t v, size_t s, size_t *hi, size_t *lo,
			   size_t *hi_next, size_t *lo_next, unsigned char *has_succ)
{
	if (!has_succ[v] || hi[s] > hi[v]) {
		hi[v] = hi[s];
		hi_next[v] = s;
	}
	if (!has_succ[v] || lo[s] < lo[v]) {
		lo[v] = lo[s];
		lo_next[v] = s;
	}
	has_succ[v] = 1;
}

/* The work instructions (COUNT of them) met from ENTRY along NEXT. */
static char **way_texts(const struct walk *w, size_t entry, const size_t *next,
			const unsigned char *has_succ, size_t count)
{
	char **v = xcalloc(count + 1, sizeof(*v));
	size_t k = 0;

	for (size_t i = entry;; i = next[i]) {
		if (w->work[i] && k < count)
			v[k++] = xstrdup(w->text[i]);
		if (!has_succ[i])
			break;
	}
	return v;
}

/*
 * The most and the fewest work instructions on a way from ENTRY to an
 * exit (an instruction without successors), over W's edges with each back
 * edge (one to an instruction still on the depth-first stack) cut.  A
 * depth-first walk finishes every successor before its predecessor, so
 * the counts are complete when an instruction finishes.
 */
static void count_ways(struct walk *w, size_t entry, struct native_path *out)
{
	size_t n = w->list->n, *first = xcalloc(n + 1, sizeof(*first));
	size_t *lo = xcalloc(n, sizeof(*lo)), *hi = xcalloc(n, sizeof(*hi));
	size_t *next = xcalloc(n, sizeof(*next)), *stack = xcalloc(n, sizeof(*stack));
	unsigned char *state = xcalloc(n, 1);	/* 0 new, 1 on the stack, 2 done */
	unsigned char *has_succ = xcalloc(n, 1);
	size_t *hi_next = xcalloc(n, sizeof(*hi_next));
	size_t *lo_next = xcalloc(n, sizeof(*lo_next));
	size_t depth = 0;

	qsort(w->edges, w->nedges, sizeof(*w->edges), by_from);
	for (size_t e = 0; e < w->nedges; e++)
		first[w->edges[e].from + 1]++;
	for (size_t i = 0; i < n; i++)
		first[i + 1] += first[i];
	stack[depth++] = entry;
	state[entry] = 1;
	next[entry] = first[entry];
	while (depth) {
		size_t v = stack[depth - 1];

		if (next[v] < first[v + 1]) {
			size_t s = w->edges[next[v]++].to;

			if (state[s] == 0) {
				state[s] = 1;
				next[s] = first[s];
				stack[depth++] = s;
			} else if (state[s] == 2) {
				take_successor(v, s, hi, lo, hi_next, lo_next, has_succ);
			}
			continue;	/* state 1: a back edge, cut */
		}
		hi[v] += w->work[v];
		lo[v] += w->work[v];
		state[v] = 2;
		if (--depth)
			take_successor(stack[depth - 1], v, hi, lo, hi_next, lo_next,
				       has_succ);
	}
	out->longest_work = hi[entry];
	out->shortest_work = lo[entry];
	out->longest = way_texts(w, entry, hi_next, has_succ, hi[entry]);
	out->shortest = way_texts(w, entry, lo_next, has_succ, lo[entry]);
	free(hi_next);
	free(lo_next);
	free(first);
	free(lo);
	free(hi);
	free(next);
	free(stack);
	free(state);
	free(has_succ);
}

int native_path_walk(const struct elf_image *img, const struct elf_image *ref,
		     const struct insn_list *list, const struct key_tests *kt,
		     const struct function_unit *u, struct native_path *out)
{
	struct walk w = { .list = list, .u = u, .cur = NO_INSN };
	size_t entry;

	memset(out, 0, sizeof(*out));
	if (!insn_at(list, u->entry))
		return -1;
	entry = (size_t)(insn_at(list, u->entry) - list->v);
	w.seen = xcalloc(list->n, 1);
	w.work = xcalloc(list->n, 1);
	w.text = xcalloc(list->n, sizeof(*w.text));
	push(&w, u->entry);
	while (w.depth) {
		size_t i = w.stack[--w.depth];

		if (w.seen[i])
			continue;
		w.seen[i] = 1;
		w.cur = i;
		visit(img, ref, kt, &w, i, out);
	}
	count_ways(&w, entry, out);
	free(w.seen);
	free(w.work);
	free(w.text);
	free(w.stack);
	free(w.edges);
	return 0;
}

static void free_texts(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void native_path_free(struct native_path *p)
{
	free_texts(p->insns, p->n);
	free_texts(p->calls, p->ncalls);
	free_texts(p->site_texts, p->site_insns);
	free_texts(p->longest, p->longest_work);
	free_texts(p->shortest, p->shortest_work);
	memset(p, 0, sizeof(*p));
}
