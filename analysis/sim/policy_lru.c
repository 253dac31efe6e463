/* LRU: evict the least recently used page (exact, one list). */

#include "page_lists.h"
#include "policy.h"

enum lru_list { LRU_NONE = PAGE_LIST_NONE, LRU_RESIDENT, LRU_NLISTS };

struct lru {
	struct page_lists lists;
};

static void *lru_create(const struct sim_trace *trace, const struct sim_params *params,
			 const void *opts)
{
	(void)opts; /* no options */
	return PAGE_LISTS_STATE_ALLOC(struct lru, lists, LRU_NLISTS, trace, params);
}

static bool lru_access(void *state, uint32_t page)
{
	struct lru *l = state;
	bool hit = page_list_of(&l->lists, page) == LRU_RESIDENT;

	if (!hit && page_list_len(&l->lists, LRU_RESIDENT) == l->lists.frames)
		page_list_move_oldest(&l->lists, LRU_RESIDENT, LRU_NONE, 0);
	page_list_move(&l->lists, page, LRU_RESIDENT, 0);
	return hit;
}

SIM_POLICY(lru, "lru",
	   "least recently used",
	   lru_create, lru_access);
