/* One block for a model's state with its page lists (page_lists.h). */
#include <assert.h>

#include "page_lists.h"

void *page_lists_state_alloc(size_t state_size, size_t lists_offset, unsigned n_lists,
			     const struct sim_trace *trace, const struct sim_params *params,
			     const struct sim_array *more, size_t n_more)
{
	size_t distinct = trace->distinct;
	struct sim_array arrays[2 + PAGE_LISTS_MORE_ARRAYS] = {
		{ lists_offset + offsetof(struct page_lists, nodes), distinct + n_lists,
		  sizeof(struct dl_link) },
		{ lists_offset + offsetof(struct page_lists, tag), distinct, sizeof(uint8_t) },
	};
	struct page_lists *pl;
	char *state;

	assert(n_lists <= PAGE_LISTS_MAX && n_more <= PAGE_LISTS_MORE_ARRAYS);
	for (size_t i = 0; i < n_more; i++)
		arrays[2 + i] = more[i];
	state = sim_state_alloc(state_size, arrays, 2 + n_more);
	if (!state)
		return NULL;
	pl = (struct page_lists *)(void *)(state + lists_offset);
	for (unsigned i = 0; i < n_lists; i++)
		dl_list_init(pl->nodes, &pl->list[i], (uint32_t)(distinct + i));
	pl->frames = params->cache_pages;
	return state;
}
