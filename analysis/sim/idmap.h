/* Open-addressing hash map from 64-bit page ids to dense 32-bit ids. */
#ifndef SIM_IDMAP_H
#define SIM_IDMAP_H

#include <stddef.h>
#include <stdint.h>

struct idmap {
	uint64_t *keys;
	uint32_t *values; /* IDMAP_EMPTY marks a free slot */
	size_t mask;
	size_t count;
};

#define IDMAP_EMPTY UINT32_MAX
/* Dense ids stop below IDMAP_EMPTY. */
#define IDMAP_MAX_IDS ((size_t)UINT32_MAX - 1)

int idmap_init(struct idmap *map, size_t expected);
/* Dense id for key, assigning the next free one on first sight.
 * Returns IDMAP_EMPTY when out of memory or out of ids. */
uint32_t idmap_intern(struct idmap *map, uint64_t key);
void idmap_free(struct idmap *map);

#endif
