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

struct walk {
	const struct insn_list *list;
	const struct function_unit *u;
	size_t *stack;
	size_t depth, cap;
	unsigned char *seen;
};

static void push(struct walk *w, uint64_t addr)
{
	const struct insn *in;

	if (!inside(w->u, addr) || !(in = insn_at(w->list, addr)))
		return;
	if (w->depth == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 256;
		w->stack = xrealloc(w->stack, w->cap * sizeof(*w->stack));
	}
	w->stack[w->depth++] = (size_t)(in - w->list->v);
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

int native_path_walk(const struct elf_image *img, const struct elf_image *ref,
		     const struct insn_list *list, const struct key_tests *kt,
		     const struct function_unit *u, struct native_path *out)
{
	struct walk w = { .list = list, .u = u };

	memset(out, 0, sizeof(*out));
	if (!insn_at(list, u->entry))
		return -1;
	w.seen = xcalloc(list->n, 1);
	push(&w, u->entry);
	while (w.depth) {
		size_t i = w.stack[--w.depth];

		if (w.seen[i])
			continue;
		w.seen[i] = 1;
		visit(img, ref, kt, &w, i, out);
	}
	free(w.seen);
	free(w.stack);
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
	memset(p, 0, sizeof(*p));
}
