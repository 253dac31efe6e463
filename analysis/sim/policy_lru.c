/* LRU: evict the least recently used page (exact, one list). */

#include "dlist.h"
#include "policy.h"

struct lru {
	struct dl_link *nodes;
	struct dl_list list;
	uint8_t *resident;
	size_t capacity;
};

static void *lru_create(const struct sim_trace *trace, const struct sim_params *params,
			 const void *opts)
{
	const struct sim_array arrays[] = {
		SIM_ARRAY(struct lru, nodes, trace->distinct + 1),
		SIM_ARRAY(struct lru, resident, trace->distinct),
	};
	struct lru *l = SIM_STATE_ALLOC(struct lru, arrays);

	(void)opts; /* no options */
	if (!l)
		return NULL;
	l->capacity = params->cache_pages;
	dl_list_init(l->nodes, &l->list, (uint32_t)trace->distinct);
	return l;
}

static bool lru_access(void *state, uint32_t page)
{
	struct lru *l = state;

	if (l->resident[page]) {
		dl_remove(l->nodes, &l->list, page);
		dl_push_front(l->nodes, &l->list, page);
		return true;
	}
	if (l->list.len == l->capacity)
		l->resident[dl_pop_back(l->nodes, &l->list)] = 0;
	l->resident[page] = 1;
	dl_push_front(l->nodes, &l->list, page);
	return false;
}

SIM_POLICY(lru, "lru",
	   "least recently used",
	   lru_create, lru_access);
