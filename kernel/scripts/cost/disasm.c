// SPDX-License-Identifier: GPL-2.0
/* objdump's disassembly of chosen ranges: see disasm.h. */
#define _DEFAULT_SOURCE
#include "disasm.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sorted.h"
#include "xalloc.h"

static const char *const prefixes[] = {
	"lock", "rep", "repz", "repe", "repnz", "repne", "notrack", "bnd",
	"data16", "addr32", "cs", "ds", "es", "ss", "fs", "gs", "rex", "rex.W",
	"rex.B", "rex.R", "rex.X", "xacquire", "xrelease", NULL,
};

static int is_prefix(const char *s, size_t len)
{
	for (const char *const *p = prefixes; *p; p++)
		if (strlen(*p) == len && !strncmp(*p, s, len))
			return 1;
	return 0;
}

const char *insn_op(const struct insn *in, size_t *len)
{
	const char *s = in->text;

	for (;;) {
		size_t n = strcspn(s, " ");

		if (!is_prefix(s, n) || !s[n]) {
			*len = n;
			return s;
		}
		s += n + 1;
	}
}

static int op_is(const char *op, size_t len, const char *name)
{
	return strlen(name) == len && !strncmp(op, name, len);
}

static enum insn_kind classify(const struct insn *in)
{
	size_t len;
	const char *op = insn_op(in, &len);
	const char *operand = op + len;
	int indirect;

	while (*operand == ' ')
		operand++;
	indirect = *operand == '*';
	if (op_is(op, len, "jmp") || op_is(op, len, "jmpq"))
		return indirect ? INSN_IJUMP : INSN_JUMP;
	if (op_is(op, len, "call") || op_is(op, len, "callq"))
		return indirect ? INSN_ICALL : INSN_CALL;
	if (len >= 2 && op[0] == 'j')	/* jcc, jrcxz, jecxz */
		return INSN_JCC;
	if (op_is(op, len, "loop") || op_is(op, len, "loope") ||
	    op_is(op, len, "loopne"))
		return INSN_JCC;
	if (op_is(op, len, "ret") || op_is(op, len, "retq") ||
	    op_is(op, len, "ud2") || op_is(op, len, "int3") ||
	    op_is(op, len, "iret") || op_is(op, len, "iretq") ||
	    op_is(op, len, "sysret") || op_is(op, len, "sysretq") ||
	    op_is(op, len, "lret") || op_is(op, len, "(bad)"))
		return INSN_STOP;
	return INSN_PLAIN;
}

/* Fold blanks to one space, drop the comment; return the comment or NULL. */
static char *fold(char *s)
{
	char *comment = strstr(s, "#");
	char *w = s;
	int blank = 0;

	if (comment)
		*comment++ = '\0';
	for (char *r = s; *r; r++) {
		if (isspace((unsigned char)*r)) {
			blank = w != s;
			continue;
		}
		if (blank)
			*w++ = ' ';
		blank = 0;
		*w++ = *r;
	}
	*w = '\0';
	return comment;
}

static int in_ranges(const struct addr_range *r, size_t n, uint64_t addr)
{
	size_t i = sorted_first_after(r, n, sizeof(*r),
				      offsetof(struct addr_range, hi), addr);

	return i < n && addr >= r[i].lo;
}

/* "ADDR <sym...>" at the end of S (a branch operand or a comment). */
static int trailing_ref(const char *s, uint64_t *ref)
{
	const char *lt = strrchr(s, '<');
	const char *p;
	char *end;

	if (!lt || lt == s || !strchr(lt, '>'))
		return 0;
	p = lt - 1;
	while (p > s && *p == ' ')
		p--;
	while (p > s && isxdigit((unsigned char)p[-1]))
		p--;
	if (!isxdigit((unsigned char)*p))
		return 0;
	errno = 0;
	*ref = strtoull(p, &end, 16);
	return !errno && end > p;
}

/* Drop objdump's " <sym+off>" after a direct target (kept as ref). */
static void drop_symbolic(char *text)
{
	char *lt = strrchr(text, '<');

	if (lt && lt > text && lt[-1] == ' ' && strchr(lt, '>'))
		lt[-1] = '\0';
}

static void add_insn(struct insn_list *out, size_t *cap, char *line,
		     uint64_t addr)
{
	struct insn in = { .addr = addr };
	char *comment = fold(line);

	in.text = xstrdup(line);
	in.kind = classify(&in);
	if (in.kind == INSN_JUMP || in.kind == INSN_JCC || in.kind == INSN_CALL) {
		in.has_ref = trailing_ref(in.text, &in.ref);
		drop_symbolic(in.text);
	} else if (comment && strstr(in.text, "(%rip)")) {
		in.has_ref = trailing_ref(comment, &in.ref);
	}
	if (out->n == *cap) {
		*cap = *cap ? 2 * *cap : 4096;
		out->v = xrealloc(out->v, *cap * sizeof(*out->v));
	}
	out->v[out->n++] = in;
}

static int run_objdump(const char *objdump, const char *path, uint64_t lo,
		       uint64_t hi, pid_t *pid)
{
	char start[40], stop[40];
	int fds[2];

	snprintf(start, sizeof(start), "--start-address=0x%" PRIx64, lo);
	snprintf(stop, sizeof(stop), "--stop-address=0x%" PRIx64, hi);
	if (pipe(fds))
		return -1;
	*pid = fork();
	if (*pid < 0)
		return -1;
	if (*pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		execlp(objdump, objdump, "-d", "-w", "--no-show-raw-insn", start,
		       stop, path, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	return fds[0];
}

int disasm_ranges(const char *objdump, const char *path,
		  const struct addr_range *ranges, size_t n,
		  struct insn_list *out, char *err, size_t errlen)
{
	char *line = NULL;
	size_t linecap = 0, cap = 0;
	int fd, status, last_kept = 0;
	pid_t pid;
	FILE *f;

	memset(out, 0, sizeof(*out));
	if (!n)
		return 0;
	fd = run_objdump(objdump, path, ranges[0].lo, ranges[n - 1].hi, &pid);
	if (fd < 0 || !(f = fdopen(fd, "r"))) {
		snprintf(err, errlen, "cannot run %s: %s", objdump, strerror(errno));
		return -1;
	}
	while (getline(&line, &linecap, f) > 0) {
		char *p = line, *end;
		uint64_t addr;

		while (*p == ' ')
			p++;
		addr = strtoull(p, &end, 16);
		if (end == p || end[0] != ':' || end[1] != '\t')
			continue;
		if (last_kept)
			out->v[out->n - 1].next = addr;
		last_kept = in_ranges(ranges, n, addr);
		if (last_kept)
			add_insn(out, &cap, end + 2, addr);
	}
	if (last_kept)
		out->v[out->n - 1].next = ranges[n - 1].hi;
	free(line);
	fclose(f);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		snprintf(err, errlen, "%s -d %s failed", objdump, path);
		return -1;
	}
	return 0;
}

void insn_list_free(struct insn_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].text);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

const struct insn *insn_at(const struct insn_list *l, uint64_t addr)
{
	size_t i = sorted_first_from(l->v, l->n, sizeof(*l->v),
				     offsetof(struct insn, addr), addr);

	return i < l->n && l->v[i].addr == addr ? &l->v[i] : NULL;
}
