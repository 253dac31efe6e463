// SPDX-License-Identifier: GPL-2.0
/* Comparable instruction texts: see normalise.h. */
#define _DEFAULT_SOURCE
#include "normalise.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define KERNEL_BASE 0xffffffff80000000ULL
#define FAR_DISPLACEMENT 0x10000000ULL

struct buf {
	char *s;
	size_t len, cap;
};

static void put(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = 2 * (b->len + n + 1);
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void puts_buf(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

char *symbol_base_name(const char *name)
{
	struct buf b = { 0 };
	const char *p = name;

	while (*p) {
		size_t n = strcspn(p + 1, ".") + 1;
		size_t digits = strspn(p + 1, "0123456789");

		/* ".<digits>" components go; the name and ".constprop" stay */
		if (!(*p == '.' && digits && digits == n - 1))
			put(&b, p, n);
		p += n;
	}
	if (!b.s)
		puts_buf(&b, "");
	return b.s;
}

/* "<sym>" or "<sym+0xoff>" for ADDR, "<addr>" when no symbol holds it. */
static void put_symbolic(struct buf *b, const struct elf_image *img,
			 uint64_t addr, int with_offset)
{
	const struct elf_symbol *s = elf_symbol_at(img, addr);
	char *base;
	char off[32];

	if (!s) {
		puts_buf(b, "<addr>");
		return;
	}
	base = symbol_base_name(s->name);
	puts_buf(b, "<");
	puts_buf(b, base);
	if (with_offset && addr != s->addr) {
		snprintf(off, sizeof(off), "+0x%" PRIx64, addr - s->addr);
		puts_buf(b, off);
	}
	puts_buf(b, ">");
	free(base);
}

char *callee_name(const struct elf_image *img, const struct insn *in)
{
	const struct elf_symbol *s;

	if (in->kind == INSN_ICALL || in->kind == INSN_IJUMP || !in->has_ref)
		return xstrdup("*indirect");
	s = elf_symbol_at(img, in->ref);
	return s ? symbol_base_name(s->name) : xstrdup("<addr>");
}

/* A register other than %rip, %rsp and the segments: "%R". */
static size_t put_register(struct buf *b, const char *t)
{
	static const char *const kept[] = { "rip", "rsp", "cs", "ds", "es",
					     "fs", "gs", "ss", NULL };
	size_t n = 1;

	while (isalnum((unsigned char)t[n]))
		n++;
	for (const char *const *k = kept; *k; k++)
		if (strlen(*k) == n - 1 && !strncmp(t + 1, *k, n - 1)) {
			put(b, t, n);
			return n;
		}
	puts_buf(b, "%R");
	return n;
}

/*
 * Copy T[0..N) to B with kernel addresses in hex numbers replaced, and
 * registers too: which register the compiler picked is not a cost, and
 * without this a function's diff is a wall of renamed moves.
 */
static void put_numbers(struct buf *b, const char *t, size_t n)
{
	const char *start = t, *stop = t + n;

	while (t < stop) {
		if (*t == '%') {
			t += put_register(b, t);
			continue;
		}
		/* "0x0(%rbp)" is "(%rbx)" with a base that needs a displacement */
		if (!strncmp(t, "0x0(", 4) && (t == start || !isalnum((unsigned char)t[-1]))) {
			t += 3;
			continue;
		}
		int neg = t[0] == '-' && t[1] == '0' && t[2] == 'x';
		const char *h = t + neg;

		if (h[0] == '0' && h[1] == 'x' && isxdigit((unsigned char)h[2]) &&
		    (t == start || !isalnum((unsigned char)t[-1]))) {
			char *end;
			uint64_t v = strtoull(h, &end, 16);

			if ((!neg && v >= KERNEL_BASE) ||
			    (neg && v >= FAR_DISPLACEMENT && v <= 0x80000000ULL)) {
				puts_buf(b, "<addr>");
				t = end;
				continue;
			}
			put(b, t, (size_t)(end - t));
			t = end;
			continue;
		}
		put(b, t, 1);
		t++;
	}
}

/*
 * "xor %eax,%eax" (or sub of a register from itself): the compiler's
 * way of writing "mov $0x0,%eax", which it picks or not with the flags'
 * liveness; both are the same work.
 */
static int zeroing_idiom(const char *t)
{
	const char *a, *comma;
	size_t n;

	if (strncmp(t, "xor", 3) && strncmp(t, "sub", 3))
		return 0;
	a = strchr(t, ' ');
	if (!a || *++a != '%')
		return 0;
	comma = strchr(a, ',');
	if (!comma)
		return 0;
	n = (size_t)(comma - a);
	return strlen(comma + 1) == n && !strncmp(a, comma + 1, n);
}

char *normalise(const struct elf_image *img, const struct insn *in,
		int inside)
{
	struct buf b = { 0 };
	const char *t = in->text;

	if (in->has_ref && (in->kind == INSN_JUMP || in->kind == INSN_JCC ||
			    in->kind == INSN_CALL)) {
		/* "jg ffffffff81188cbf": the operand is the last word */
		const char *last = strrchr(t, ' ');
		size_t keep = last ? (size_t)(last - t) + 1 : strlen(t);

		put(&b, t, keep);
		if (inside)
			puts_buf(&b, "<L>");
		else
			put_symbolic(&b, img, in->ref, 0);
		return b.s;
	}
	if (in->has_ref) {
		const char *rip = strstr(t, "(%rip)");
		const char *d = rip;

		/* back over the displacement "-0x1234" or "0x1234" */
		while (d > t && (isxdigit((unsigned char)d[-1]) || d[-1] == 'x'))
			d--;
		if (d > t && d[-1] == '-')
			d--;
		put_numbers(&b, t, (size_t)(d - t));
		put_symbolic(&b, img, in->ref, 1);
		put_numbers(&b, rip, strlen(rip));
		return b.s;
	}
	if (zeroing_idiom(t)) {
		puts_buf(&b, "mov $0x0,%R");
		return b.s;
	}
	put_numbers(&b, t, strlen(t));
	if (!b.s)
		puts_buf(&b, "");
	return b.s;
}

int register_shuffle(const char *t)
{
	static const char *const shapes[] = {
		"mov %R,%R", "movq %R,%R", "movl %R,%R", "xchg %R,%R",
		"push %R", "pop %R", NULL,
	};
	size_t n = strlen(t);

	for (const char *const *s = shapes; *s; s++)
		if (!strcmp(t, *s))
			return 1;
	/* the frame: sub/add $N,%rsp around calls */
	if ((!strncmp(t, "sub $", 5) || !strncmp(t, "add $", 5)) &&
	    n > 5 && !strcmp(t + n - 5, ",%rsp"))
		return 1;
	/* a spill or a reload: mov %R,N(%rsp), mov N(%rsp),%R */
	if (!strncmp(t, "mov", 3) && (strstr(t, "(%rsp),%R") ||
				      (strstr(t, " %R,") && strstr(t, "(%rsp)"))))
		return 1;
	return 0;
}

static int control_flow(const char *t)
{
	const char *op = t;

	while (!strncmp(op, "notrack ", 8) || !strncmp(op, "bnd ", 4))
		op = strchr(op, ' ') + 1;
	return op[0] == 'j' || !strncmp(op, "call", 4) || !strncmp(op, "ret", 3) ||
	       !strncmp(op, "nop", 3) || !strcmp(op, "xchg %ax,%ax") ||
	       !strncmp(op, "int3", 4) || !strncmp(op, "ud2", 3);
}

/* Copy the mnemonic at *T (with "lock "), its size suffix dropped. */
static void put_mnemonic(struct buf *b, const char **t)
{
	static const char *const sized[] = {
		"mov", "add", "sub", "and", "or", "xor", "cmp", "test", "inc",
		"dec", "neg", "not", "shl", "shr", "sar", "sal", "rol", "ror",
		"adc", "sbb", "bt", "bts", "btr", "btc", "xadd", "cmpxchg",
		"xchg", "lea", "push", "pop", "imul", NULL,
	};
	size_t n;

	if (!strncmp(*t, "lock ", 5)) {
		puts_buf(b, "lock ");
		*t += 5;
	}
	n = strcspn(*t, " ");
	for (const char *const *m = sized; *m; m++)
		if (strlen(*m) + 1 == n && !strncmp(*t, *m, n - 1) &&
		    strchr("bwlq", (*t)[n - 1])) {
			puts_buf(b, *m);
			*t += n;
			return;
		}
	put(b, *t, n);
	*t += n;
}

char *work_shape(const char *t)
{
	struct buf b = { 0 };
	char *shape;

	if (control_flow(t) || register_shuffle(t))
		return NULL;
	/* a lea that only adds two registers is an add */
	if (!strcmp(t, "lea (%R,%R,1),%R"))
		t = "add %R,%R";
	/* the accumulator's short forms of sign extension */
	else if (!strcmp(t, "cltq"))
		t = "movslq %R,%R";
	else if (!strcmp(t, "cwtl"))
		t = "movswl %R,%R";
	else if (!strcmp(t, "cbtw"))
		t = "movsbw %R,%R";
	put_mnemonic(&b, &t);
	while (*t) {
		const char *m = t + (*t == '-');

		/* a number, a displacement included: N */
		if (m[0] == '0' && m[1] == 'x' && isxdigit((unsigned char)m[2])) {
			t = m + 2;
			while (isxdigit((unsigned char)*t))
				t++;
			if (!strncmp(t, "(%rsp)", 6)) {	/* a stack slot */
				puts_buf(&b, "%R");
				t += 6;
			} else {
				puts_buf(&b, "N");
			}
			continue;
		}
		if (!strncmp(t, "(%rsp)", 6)) {
			puts_buf(&b, "%R");
			t += 6;
			continue;
		}
		/* a memory operand without displacement: N(...) all the same */
		if (*t == '(' && !(b.len && b.s[b.len - 1] == 'N'))
			puts_buf(&b, "N");
		put(&b, t, 1);
		t++;
	}
	shape = b.s;
	if (shape && register_shuffle(shape)) {
		free(shape);
		return NULL;
	}
	return shape;
}
