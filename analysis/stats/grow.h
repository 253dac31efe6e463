/* labstat's growing arrays: room for one more item, doubling the
 * capacity (from a first one) when the array is full. */
#ifndef GROW_H
#define GROW_H

#include <stddef.h>
#include <stdlib.h>

/* items, holding count items of item_size bytes in *capacity, with room
 * for one more: items itself, or a larger copy whose capacity is then in
 * *capacity; NULL when out of memory (items is then unchanged). */
static inline void *grow_for_one_more(void *items, size_t count, size_t *capacity,
				      size_t item_size, size_t first_capacity)
{
	size_t cap = *capacity ? *capacity * 2 : first_capacity;
	void *grown;

	if (count < *capacity)
		return items;
	grown = realloc(items, cap * item_size);
	if (grown != NULL)
		*capacity = cap;
	return grown;
}

#endif
