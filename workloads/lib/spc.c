#include "spc.h"

#include "stamp.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define SPC_FIELDS 5

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Strip surrounding blanks from [*s, *e). */
static void trim(const char **s, const char **e)
{
	while (*s < *e && is_blank(**s))
		(*s)++;
	while (*e > *s && is_blank((*e)[-1]))
		(*e)--;
}

static int field_u64(const char *s, const char *e, uint64_t *out)
{
	uint64_t v = 0;

	if (s == e)
		return -1;
	for (; s < e; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

static int field_time(const char *s, const char *e, double *out)
{
	char buf[64];
	char *end;
	size_t len = (size_t)(e - s);

	if (!len || len >= sizeof(buf) || *s == '-' || *s == '+')
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	for (size_t i = 0; i < len; i++)
		if (!strchr("0123456789.eE+-", buf[i]))
			return -1;
	errno = 0;
	*out = strtod(buf, &end);
	if (errno || *end || !isfinite(*out) || *out < 0)
		return -1;
	return 0;
}

int spc_parse_line(const char *line, struct spc_req *out, const char **why)
{
	const char *start[SPC_FIELDS], *end[SPC_FIELDS];
	const char *p = line, *line_end = line + strlen(line);
	uint64_t asu, lba, size, last_byte;
	int n = 0;

	*why = NULL;
	trim(&p, &line_end);
	if (p == line_end || *p == '#')
		return 0;
	for (;;) {
		const char *comma = memchr(p, ',', (size_t)(line_end - p));
		const char *stop = comma ? comma : line_end;

		if (n == SPC_FIELDS) {
			*why = "more than 5 fields (expected ASU,LBA,Size,Opcode,Timestamp)";
			return -1;
		}
		start[n] = p;
		end[n] = stop;
		trim(&start[n], &end[n]);
		n++;
		if (!comma)
			break;
		p = comma + 1;
	}
	if (n < SPC_FIELDS) {
		*why = "fewer than 5 fields (expected ASU,LBA,Size,Opcode,Timestamp)";
		return -1;
	}
	if (field_u64(start[0], end[0], &asu)) {
		*why = "ASU is not a non-negative integer";
		return -1;
	}
	if (asu > SPC_MAX_ASU) {
		*why = "ASU above 4095";
		return -1;
	}
	if (field_u64(start[1], end[1], &lba)) {
		*why = "LBA is not a non-negative integer";
		return -1;
	}
	if (field_u64(start[2], end[2], &size)) {
		*why = "size is not a non-negative integer";
		return -1;
	}
	if (size == 0) {
		*why = "size is 0";
		return -1;
	}
	if (size > SPC_MAX_SIZE) {
		*why = "size above 16 MiB";
		return -1;
	}
	if (lba > (SPC_MAX_PAGE * LAB_PAGE_SIZE) / SPC_SECTOR) {
		*why = "LBA beyond 2^40 pages";
		return -1;
	}
	last_byte = lba * SPC_SECTOR + size - 1;
	if (last_byte / LAB_PAGE_SIZE >= SPC_MAX_PAGE) {
		*why = "request ends beyond 2^40 pages";
		return -1;
	}
	if (end[3] - start[3] != 1 || !strchr("rRwW", *start[3])) {
		*why = "opcode is not r, R, w or W";
		return -1;
	}
	if (field_time(start[4], end[4], &out->ts)) {
		*why = "timestamp is not a non-negative number";
		return -1;
	}
	out->asu = (uint16_t)asu;
	out->lba = lba;
	out->size = (uint32_t)size;
	out->op = (*start[3] == 'w' || *start[3] == 'W') ? 'w' : 'r';
	return 1;
}

void spc_pages(const struct spc_req *r, uint64_t *first, uint64_t *last)
{
	uint64_t byte = r->lba * SPC_SECTOR;

	*first = byte / LAB_PAGE_SIZE;
	*last = (byte + r->size - 1) / LAB_PAGE_SIZE;
}

int spc_trace_push(struct spc_trace *t, const struct spc_req *r)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 4096;
		struct spc_req *p = realloc(t->reqs, cap * sizeof(*p));

		if (!p)
			return -1;
		t->reqs = p;
		t->cap = cap;
	}
	t->reqs[t->n++] = *r;
	return 0;
}

void spc_trace_free(struct spc_trace *t)
{
	free(t->reqs);
	t->reqs = NULL;
	t->n = t->cap = 0;
}

int spc_load(const char *path, struct spc_trace *t, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t linecap = 0;
	unsigned long lineno = 0;
	int rc = 0;

	memset(t, 0, sizeof(*t));
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		ssize_t len = getline(&line, &linecap, f);
		struct spc_req r;
		const char *why;
		int got;

		if (len < 0)
			break;
		lineno++;
		if (strlen(line) != (size_t)len) {
			snprintf(err, errlen, "%s:%lu: line contains a NUL byte", path, lineno);
			rc = -1;
			break;
		}
		got = spc_parse_line(line, &r, &why);
		if (got < 0) {
			snprintf(err, errlen, "%s:%lu: %s", path, lineno, why);
			rc = -1;
			break;
		}
		if (got && spc_trace_push(t, &r)) {
			snprintf(err, errlen, "%s:%lu: out of memory", path, lineno);
			rc = -1;
			break;
		}
	}
	if (!rc && ferror(f)) {
		snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
		rc = -1;
	}
	free(line);
	fclose(f);
	if (rc)
		spc_trace_free(t);
	return rc;
}
