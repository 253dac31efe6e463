// SPDX-License-Identifier: GPL-2.0
/* Binary search in arrays sorted by an address: see sorted.h. */
#include "sorted.h"

#include <string.h>

static uint64_t key_of(const void *base, size_t size, size_t key_offset,
		       size_t i)
{
	uint64_t key;

	memcpy(&key, (const char *)base + i * size + key_offset, sizeof(key));
	return key;
}

/* The first index whose key is above KEY, or also equal to it with
 * WITH_KEY. */
static size_t first_index(const void *base, size_t n, size_t size,
			  size_t key_offset, uint64_t key, int with_key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t k = key_of(base, size, key_offset, mid);

		if (k < key || (k == key && !with_key))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t sorted_first_from(const void *base, size_t n, size_t size,
			 size_t key_offset, uint64_t key)
{
	return first_index(base, n, size, key_offset, key, 1);
}

size_t sorted_first_after(const void *base, size_t n, size_t size,
			  size_t key_offset, uint64_t key)
{
	return first_index(base, n, size, key_offset, key, 0);
}
