/* The pages of a model that keeps them on a few lists: doubly linked lists
 * over one node array (dlist.h), each page on at most one of them, a tag
 * byte per page naming its list, and the cache's frames, which bound the
 * pages on the lists of resident pages.
 *
 * lru, lru2q, sieve, 2q, arc, car, cart and s3fifo keep their pages this
 * way; they differ in their lists and in the rules that move pages between
 * them, and share the bookkeeping of a move, which is here.
 *
 * The low PAGE_LIST_BITS bits of a tag are the page's list; list 0,
 * PAGE_LIST_NONE, is "on no list" (not resident, not remembered).  The bits
 * above are the model's own flags (a reference bit, a count). */
#ifndef SIM_PAGE_LISTS_H
#define SIM_PAGE_LISTS_H

#include <stddef.h>
#include <stdint.h>

#include "dlist.h"
#include "policy.h"

#define PAGE_LIST_BITS 3
#define PAGE_LIST_MASK ((1u << PAGE_LIST_BITS) - 1)
#define PAGE_LISTS_MAX (1u << PAGE_LIST_BITS)
#define PAGE_LIST_NONE 0u
/* The model's flag n of a tag (n from 0 to 7 - PAGE_LIST_BITS). */
#define PAGE_LIST_FLAG(n) ((uint8_t)(1u << (PAGE_LIST_BITS + (n))))

struct page_lists {
	struct dl_link *nodes; /* the pages, then one sentinel per list */
	uint8_t *tag;          /* per page: list | the model's flags */
	struct dl_list list[PAGE_LISTS_MAX];
	size_t frames;         /* params->cache_pages */
};

/* A zeroed model state of type, as SIM_STATE_ALLOC, whose struct
 * page_lists member holds n_lists lists (PAGE_LIST_NONE counted) over the
 * trace's pages, all empty, and the frames of params; NULL when out of
 * memory. */
#define PAGE_LISTS_STATE_ALLOC(type, member, n_lists, trace, params) \
	((type *)page_lists_state_alloc(sizeof(type), offsetof(type, member), (n_lists), (trace), \
					(params), NULL, 0))

/* The same with the model's other arrays (sim_state_alloc's; at most
 * PAGE_LISTS_MORE_ARRAYS of them) in the block too. */
#define PAGE_LISTS_MORE_ARRAYS 2
void *page_lists_state_alloc(size_t state_size, size_t lists_offset, unsigned n_lists,
			     const struct sim_trace *trace, const struct sim_params *params,
			     const struct sim_array *more, size_t n_more);

static inline unsigned page_list_of(const struct page_lists *pl, uint32_t page)
{
	return pl->tag[page] & PAGE_LIST_MASK;
}

static inline size_t page_list_len(const struct page_lists *pl, unsigned list)
{
	return pl->list[list].len;
}

/* The oldest page of a list: its LRU end, or the page under a clock hand. */
static inline uint32_t page_list_back(const struct page_lists *pl, unsigned list)
{
	return dl_back(pl->nodes, &pl->list[list]);
}

/* Moves page to the front of list to (its MRU end, where pages enter), or
 * off every list when to is PAGE_LIST_NONE (its tag then 0).  The flags of
 * its tag in keep stay set; the others are cleared. */
static inline void page_list_move(struct page_lists *pl, uint32_t page, unsigned to, uint8_t keep)
{
	unsigned from = page_list_of(pl, page);

	if (from != PAGE_LIST_NONE)
		dl_remove(pl->nodes, &pl->list[from], page);
	if (to == PAGE_LIST_NONE) {
		pl->tag[page] = 0;
		return;
	}
	dl_push_front(pl->nodes, &pl->list[to], page);
	pl->tag[page] = (uint8_t)((pl->tag[page] & keep & ~PAGE_LIST_MASK) | to);
}

/* Moves the oldest page of list from as page_list_move() does; returns it. */
static inline uint32_t page_list_move_oldest(struct page_lists *pl, unsigned from, unsigned to,
					     uint8_t keep)
{
	uint32_t page = page_list_back(pl, from);

	page_list_move(pl, page, to, keep);
	return page;
}

#endif
