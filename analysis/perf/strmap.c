#define _POSIX_C_SOURCE 200809L
#include "strmap.h"

#include <stdlib.h>
#include <string.h>

void strmap_init(struct strmap *m)
{
	memset(m, 0, sizeof(*m));
}

void strmap_free(struct strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->slots[i].key);
	free(m->slots);
	strmap_init(m);
}

static uint64_t hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

/* The slot holding key, or the empty slot where it would go. */
static struct strmap_entry *find(const struct strmap *m, const char *key)
{
	size_t i = (size_t)hash(key) & (m->cap - 1);

	while (m->slots[i].key != NULL && strcmp(m->slots[i].key, key) != 0)
		i = (i + 1) & (m->cap - 1);
	return &m->slots[i];
}

static int grow(struct strmap *m)
{
	struct strmap old = *m;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->slots = calloc(m->cap, sizeof(*m->slots));
	if (m->slots == NULL) {
		*m = old;
		return -1;
	}
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i].key != NULL)
			*find(m, old.slots[i].key) = old.slots[i];
	free(old.slots);
	return 0;
}

int strmap_add(struct strmap *m, const char *key, uint64_t n)
{
	/* At most half full, so that probes stay short. */
	if ((m->len + 1) * 2 > m->cap && grow(m) != 0)
		return -1;
	struct strmap_entry *e = find(m, key);
	if (e->key == NULL) {
		e->key = strdup(key);
		if (e->key == NULL)
			return -1;
		e->count = 0;
		m->len++;
	}
	e->count += n;
	return 0;
}

uint64_t strmap_get(const struct strmap *m, const char *key)
{
	if (m->cap == 0)
		return 0;
	const struct strmap_entry *e = find(m, key);
	return e->key != NULL ? e->count : 0;
}

static int by_key(const void *a, const void *b)
{
	const struct strmap_entry *x = *(const struct strmap_entry *const *)a;
	const struct strmap_entry *y = *(const struct strmap_entry *const *)b;

	return strcmp(x->key, y->key);
}

static int by_count(const void *a, const void *b)
{
	const struct strmap_entry *x = *(const struct strmap_entry *const *)a;
	const struct strmap_entry *y = *(const struct strmap_entry *const *)b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->key, y->key);
}

const struct strmap_entry **strmap_sorted(const struct strmap *m, enum strmap_order order)
{
	if (m->len == 0)
		return NULL;
	const struct strmap_entry **list = malloc(m->len * sizeof(*list));
	size_t n = 0;

	if (list == NULL)
		return NULL;
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].key != NULL)
			list[n++] = &m->slots[i];
	qsort(list, n, sizeof(*list), order == STRMAP_BY_KEY ? by_key : by_count);
	return list;
}
