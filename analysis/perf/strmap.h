/* A map from strings to counts (open addressing, linear probing, FNV-1a):
 * the folded stacks of a profile and the symbols' sample counts. */
#ifndef STRMAP_H
#define STRMAP_H

#include <stddef.h>
#include <stdint.h>

struct strmap_entry {
	char *key;
	uint64_t count;
};

struct strmap {
	struct strmap_entry *slots;
	size_t cap;	/* a power of two, or 0 before the first add */
	size_t len;
};

void strmap_init(struct strmap *m);
void strmap_free(struct strmap *m);

/* Adds n to key's count (a new key starts at 0).  Returns 0, or -1 when
 * out of memory. */
int strmap_add(struct strmap *m, const char *key, uint64_t n);

/* key's count, 0 when absent. */
uint64_t strmap_get(const struct strmap *m, const char *key);

/* The entries, in an array of m->len pointers (free() it), sorted by key
 * (STRMAP_BY_KEY) or by count, largest first, ties by key
 * (STRMAP_BY_COUNT); NULL when out of memory or the map is empty. */
enum strmap_order { STRMAP_BY_KEY, STRMAP_BY_COUNT };
const struct strmap_entry **strmap_sorted(const struct strmap *m, enum strmap_order order);

#endif
