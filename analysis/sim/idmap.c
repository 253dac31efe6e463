/* Linear probing, capacity a power of two, kept at most half full. */
#include <stdlib.h>
#include <string.h>

#include "idmap.h"

static inline size_t idmap_hash(uint64_t key)
{
	/* splitmix64 finalizer: page ids are structured ((obj << 40) | idx),
	 * so low bits alone would cluster. */
	key = (key ^ (key >> 30)) * 0xbf58476d1ce4e5b9ULL;
	key = (key ^ (key >> 27)) * 0x94d049bb133111ebULL;
	return (size_t)(key ^ (key >> 31));
}

static int idmap_alloc(struct idmap *map, size_t capacity)
{
	map->keys = malloc(capacity * sizeof(*map->keys));
	map->values = malloc(capacity * sizeof(*map->values));
	if (!map->keys || !map->values) {
		free(map->keys);
		free(map->values);
		map->keys = NULL;
		map->values = NULL;
		return -1;
	}
	memset(map->values, 0xff, capacity * sizeof(*map->values));
	map->mask = capacity - 1;
	return 0;
}

int idmap_init(struct idmap *map, size_t expected)
{
	size_t capacity = 1024;

	while (capacity < expected * 2)
		capacity *= 2;
	map->count = 0;
	return idmap_alloc(map, capacity);
}

static int idmap_grow(struct idmap *map)
{
	struct idmap bigger;
	size_t old_capacity = map->mask + 1;

	if (idmap_alloc(&bigger, old_capacity * 2) < 0)
		return -1;
	bigger.count = map->count;
	for (size_t i = 0; i < old_capacity; i++) {
		if (map->values[i] == IDMAP_EMPTY)
			continue;
		size_t slot = idmap_hash(map->keys[i]) & bigger.mask;

		while (bigger.values[slot] != IDMAP_EMPTY)
			slot = (slot + 1) & bigger.mask;
		bigger.keys[slot] = map->keys[i];
		bigger.values[slot] = map->values[i];
	}
	idmap_free(map);
	*map = bigger;
	return 0;
}

uint32_t idmap_intern(struct idmap *map, uint64_t key)
{
	size_t slot = idmap_hash(key) & map->mask;

	while (map->values[slot] != IDMAP_EMPTY) {
		if (map->keys[slot] == key)
			return map->values[slot];
		slot = (slot + 1) & map->mask;
	}
	if (map->count >= IDMAP_MAX_IDS)
		return IDMAP_EMPTY;
	if ((map->count + 1) * 2 > map->mask + 1) {
		if (idmap_grow(map) < 0)
			return IDMAP_EMPTY;
		slot = idmap_hash(key) & map->mask;
		while (map->values[slot] != IDMAP_EMPTY)
			slot = (slot + 1) & map->mask;
	}
	map->keys[slot] = key;
	map->values[slot] = (uint32_t)map->count;
	return (uint32_t)map->count++;
}

void idmap_free(struct idmap *map)
{
	free(map->keys);
	free(map->values);
	map->keys = NULL;
	map->values = NULL;
}
