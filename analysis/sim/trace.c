/* Loading reference strings: LABREFS1 binary (CONTRACTS.md) or LIRS text. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "idmap.h"
#include "trace.h"

#define LABREFS_MAGIC "LABREFS1"
#define LABREFS_HEADER_BYTES 16
/* next_use stores reference indices as u32 with one value reserved. */
#define TRACE_MAX_REFS ((size_t)UINT32_MAX - 1)

struct loader {
	struct sim_trace *trace;
	struct idmap ids;
	size_t capacity;
	char *err;
	size_t err_len;
	const char *path;
};

static int loader_fail(struct loader *ld, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int loader_fail(struct loader *ld, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(ld->err, ld->err_len, "%s: ", ld->path);

	if (n < 0 || (size_t)n >= ld->err_len)
		return -1;
	va_start(ap, fmt);
	vsnprintf(ld->err + n, ld->err_len - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static int loader_add(struct loader *ld, uint64_t page)
{
	struct sim_trace *t = ld->trace;

	if (t->n_refs == ld->capacity) {
		size_t new_capacity = ld->capacity ? ld->capacity * 2 : 1 << 16;
		uint32_t *grown;

		if (t->n_refs >= TRACE_MAX_REFS)
			return loader_fail(ld, "more than %llu references",
					   (unsigned long long)TRACE_MAX_REFS);
		if (new_capacity > TRACE_MAX_REFS)
			new_capacity = TRACE_MAX_REFS;
		grown = realloc(t->refs, new_capacity * sizeof(*grown));
		if (!grown)
			return loader_fail(ld, "out of memory after %zu references", t->n_refs);
		t->refs = grown;
		ld->capacity = new_capacity;
	}
	uint32_t id = idmap_intern(&ld->ids, page);

	if (id == IDMAP_EMPTY)
		return loader_fail(ld, "out of memory or ids after %zu distinct pages", ld->ids.count);
	t->refs[t->n_refs++] = id;
	return 0;
}

static uint32_t le32(const unsigned char *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint64_t le64(const unsigned char *b)
{
	return (uint64_t)le32(b) | (uint64_t)le32(b + 4) << 32;
}

static int load_binary(struct loader *ld, FILE *f, const unsigned char *header, size_t header_len)
{
	enum { CHUNK = 1 << 16 };
	static const size_t rec = sizeof(uint64_t);
	unsigned char *buf;
	unsigned long long offset = LABREFS_HEADER_BYTES;
	size_t carry = 0;

	if (header_len < LABREFS_HEADER_BYTES)
		return loader_fail(ld, "truncated LABREFS1 header at offset %zu", header_len);
	ld->trace->page_size = le32(header + 8);
	if (le32(header + 12) != 0)
		return loader_fail(ld, "unsupported LABREFS1 flags 0x%x at offset 12", (unsigned)le32(header + 12));
	buf = malloc(CHUNK * rec);
	if (!buf)
		return loader_fail(ld, "out of memory");
	for (;;) {
		size_t got = fread(buf + carry, 1, CHUNK * rec - carry, f);
		size_t have = carry + got;
		size_t whole = have / rec;

		if (got == 0) {
			if (ferror(f)) {
				free(buf);
				return loader_fail(ld, "read error at offset %llu: %s",
						   offset, strerror(errno));
			}
			break;
		}
		for (size_t i = 0; i < whole; i++) {
			if (loader_add(ld, le64(buf + i * rec)) < 0) {
				free(buf);
				return -1;
			}
		}
		offset += whole * rec;
		carry = have - whole * rec;
		memmove(buf, buf + whole * rec, carry);
	}
	free(buf);
	if (carry)
		return loader_fail(ld, "truncated page id at offset %llu (%zu of 8 bytes)",
				   offset, carry);
	return 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int load_text(struct loader *ld, FILE *f)
{
	char *line = NULL;
	size_t line_cap = 0;
	ssize_t len;
	unsigned long long line_no = 0;

	while ((len = getline(&line, &line_cap, f)) >= 0) {
		char *p = line, *end = line + len;
		uint64_t value = 0;

		line_no++;
		while (p < end && is_blank(*p))
			p++;
		while (end > p && is_blank(end[-1]))
			end--;
		if (p == end)
			continue; /* blank lines carry no reference */
		for (char *q = p; q < end; q++) {
			if (*q < '0' || *q > '9' || value > (UINT64_MAX - (uint64_t)(*q - '0')) / 10) {
				char shown[48];
				size_t n = (size_t)(end - p) < sizeof(shown) - 1 ? (size_t)(end - p) : sizeof(shown) - 1;

				memcpy(shown, p, n);
				shown[n] = '\0';
				for (size_t i = 0; i < n; i++)
					if ((unsigned char)shown[i] < 0x20 || (unsigned char)shown[i] > 0x7e)
						shown[i] = '?';
				free(line);
				snprintf(ld->err, ld->err_len, "%s:%llu: not a block number: '%s'",
					 ld->path, line_no, shown);
				return -1;
			}
			value = value * 10 + (uint64_t)(*q - '0');
		}
		if (loader_add(ld, value) < 0) {
			free(line);
			return -1;
		}
	}
	free(line);
	if (ferror(f))
		return loader_fail(ld, "read error after line %llu: %s", line_no, strerror(errno));
	return 0;
}

int trace_load(const char *path, struct sim_trace *trace, char *err, size_t err_len)
{
	struct loader ld = { .trace = trace, .err = err, .err_len = err_len, .path = path };
	unsigned char header[LABREFS_HEADER_BYTES];
	struct stat st;
	size_t header_len;
	int rc;
	FILE *f;

	memset(trace, 0, sizeof(*trace));
	f = fopen(path, "rb");
	if (!f)
		return loader_fail(&ld, "%s", strerror(errno));
	header_len = fread(header, 1, sizeof(header), f);
	if (ferror(f)) {
		rc = loader_fail(&ld, "%s", strerror(errno));
		fclose(f);
		return rc;
	}
	if (idmap_init(&ld.ids, 1 << 16) < 0) {
		fclose(f);
		return loader_fail(&ld, "out of memory");
	}
	if (header_len >= 8 && memcmp(header, LABREFS_MAGIC, 8) == 0) {
		rc = load_binary(&ld, f, header, header_len);
	} else {
		if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
			rc = loader_fail(&ld, "%s", strerror(EISDIR));
		} else {
			rewind(f);
			rc = load_text(&ld, f);
		}
	}
	fclose(f);
	trace->distinct = ld.ids.count;
	idmap_free(&ld.ids);
	if (rc == 0 && trace->n_refs == 0)
		rc = loader_fail(&ld, "no references");
	if (rc < 0) {
		trace_free(trace);
		return -1;
	}
	return 0;
}

int trace_compute_next_use(struct sim_trace *trace)
{
	uint32_t *last_seen;

	if (trace->next_use)
		return 0;
	trace->next_use = malloc(trace->n_refs * sizeof(*trace->next_use));
	last_seen = malloc(trace->distinct * sizeof(*last_seen));
	if (!trace->next_use || !last_seen) {
		free(trace->next_use);
		free(last_seen);
		trace->next_use = NULL;
		return -1;
	}
	memset(last_seen, 0xff, trace->distinct * sizeof(*last_seen));
	for (size_t i = trace->n_refs; i-- > 0;) {
		uint32_t page = trace->refs[i];

		trace->next_use[i] = last_seen[page];
		last_seen[page] = (uint32_t)i;
	}
	free(last_seen);
	return 0;
}

void trace_free(struct sim_trace *trace)
{
	free(trace->refs);
	free(trace->next_use);
	memset(trace, 0, sizeof(*trace));
}
