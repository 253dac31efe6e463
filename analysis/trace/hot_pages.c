#define _POSIX_C_SOURCE 200809L
#include "hot_pages.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "LABREFS1"
#define HEADER_BYTES 16
#define CHUNK 65536

static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

static int by_id(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int by_refs(const void *a, const void *b)
{
	const struct hot_page *x = a, *y = b;

	if (x->refs != y->refs)
		return x->refs > y->refs ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

int hot_pages_load(const char *path, double percent, struct hot_pages *h, char *err,
		   size_t err_len)
{
	unsigned char header[HEADER_BYTES], buf[CHUNK * 8];
	uint64_t *ids = NULL;
	size_t n = 0, cap = 0, got, keep;
	FILE *f;

	memset(h, 0, sizeof(*h));
	if (!(percent > 0 && percent <= 100))
		return fail(err, err_len, "the hot percent must be above 0 and at most 100");
	f = fopen(path, "rb");
	if (!f)
		return fail(err, err_len, "%s: %s", path, strerror(errno));
	if (fread(header, 1, HEADER_BYTES, f) != HEADER_BYTES || memcmp(header, MAGIC, 8)) {
		fclose(f);
		return fail(err, err_len, "%s: not a LABREFS1 reference string", path);
	}
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (got % 8) {
			fclose(f);
			free(ids);
			return fail(err, err_len, "%s: truncated at a reference", path);
		}
		if (n + got / 8 > cap) {
			size_t c = cap ? cap * 2 : CHUNK;
			uint64_t *p;

			while (c < n + got / 8)
				c *= 2;
			p = realloc(ids, c * sizeof(*ids));
			if (!p) {
				fclose(f);
				free(ids);
				return fail(err, err_len, "out of memory");
			}
			ids = p;
			cap = c;
		}
		for (size_t i = 0; i < got / 8; i++) {
			uint64_t v = 0;

			for (int b = 7; b >= 0; b--)
				v = v << 8 | buf[i * 8 + (size_t)b];
			ids[n++] = v;
		}
	}
	fclose(f);
	if (n == 0) {
		free(ids);
		return fail(err, err_len, "%s: no references", path);
	}
	qsort(ids, n, sizeof(*ids), by_id);
	h->distinct = 1;
	for (size_t i = 1; i < n; i++)
		h->distinct += ids[i] != ids[i - 1];
	h->pages = malloc(h->distinct * sizeof(*h->pages));
	if (!h->pages) {
		free(ids);
		return fail(err, err_len, "out of memory");
	}
	h->distinct = 0;
	for (size_t i = 0; i < n; i++) {
		if (h->distinct && h->pages[h->distinct - 1].id == ids[i]) {
			h->pages[h->distinct - 1].refs++;
			continue;
		}
		h->pages[h->distinct++] = (struct hot_page){ .id = ids[i], .refs = 1 };
	}
	free(ids);
	qsort(h->pages, h->distinct, sizeof(*h->pages), by_refs);
	keep = (size_t)ceil((double)h->distinct * percent / 100.0);
	h->n = keep ? keep : 1;
	for (size_t i = 0; i < h->n; i++)
		h->refs += h->pages[i].refs;
	return 0;
}

void hot_pages_free(struct hot_pages *h)
{
	free(h->pages);
	memset(h, 0, sizeof(*h));
}

int hot_parse_inodes(const char *spec, uint64_t *objs, unsigned long long *inos, size_t cap)
{
	size_t n = 0;

	while (*spec) {
		unsigned long long o, i;
		int used;

		while (*spec == ' ')
			spec++;
		if (!*spec)
			break;
		if (n == cap || sscanf(spec, "%llu:%llu%n", &o, &i, &used) != 2 ||
		    (spec[used] != ' ' && spec[used] != '\0'))
			return -1;
		objs[n] = o;
		inos[n++] = i;
		spec += used;
	}
	return (int)n;
}
