/* One zeroed block for a model's state and its per-page arrays.
 *
 * Every model keeps a struct of scalars and a few arrays sized by the
 * trace (one entry per distinct page) or by the cache (one per frame).
 * Allocating them together makes create() one call that either fully
 * succeeds or returns NULL, and lets pagesim release any model with one
 * free().  Each array starts on a max_align_t boundary. */
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"

/* Round n up to the block's alignment; false if that overflows. */
static bool align_up(size_t n, size_t *out)
{
	const size_t a = alignof(max_align_t);

	if (n > SIZE_MAX - (a - 1))
		return false;
	*out = (n + a - 1) / a * a;
	return true;
}

void *sim_state_alloc(size_t state_size, const struct sim_array *arrays, size_t n_arrays)
{
	size_t total, at;
	char *block;

	if (!align_up(state_size, &total))
		return NULL;
	for (size_t i = 0; i < n_arrays; i++) {
		const struct sim_array *a = &arrays[i];

		if (a->size && a->count > (SIZE_MAX - total) / a->size)
			return NULL;
		if (!align_up(total + a->count * a->size, &total))
			return NULL;
	}
	block = calloc(1, total);
	if (!block)
		return NULL;
	align_up(state_size, &at);
	for (size_t i = 0; i < n_arrays; i++) {
		void *array = block + at;

		/* The member is a typed pointer; its bytes are those of a void *. */
		memcpy(block + arrays[i].offset, &array, sizeof(array));
		align_up(at + arrays[i].count * arrays[i].size, &at);
	}
	return block;
}
