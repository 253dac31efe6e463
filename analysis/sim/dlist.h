/* Doubly linked lists over array indices.
 *
 * All lists of one model share one node array; node i < n_pages is page i,
 * the nodes above hold the list sentinels.  Using u32 indices instead of
 * pointers halves the memory and keeps the models' state in flat arrays. */
#ifndef SIM_DLIST_H
#define SIM_DLIST_H

#include <stddef.h>
#include <stdint.h>

struct dl_link {
	uint32_t prev;
	uint32_t next;
};

struct dl_list {
	uint32_t sentinel;
	size_t len;
};

static inline void dl_list_init(struct dl_link *nodes, struct dl_list *list, uint32_t sentinel)
{
	list->sentinel = sentinel;
	list->len = 0;
	nodes[sentinel].prev = sentinel;
	nodes[sentinel].next = sentinel;
}

static inline void dl_insert_between(struct dl_link *nodes, uint32_t node, uint32_t before, uint32_t after)
{
	nodes[node].prev = before;
	nodes[node].next = after;
	nodes[before].next = node;
	nodes[after].prev = node;
}

/* Front is the most recent end (MRU / clock "tail" where new pages go). */
static inline void dl_push_front(struct dl_link *nodes, struct dl_list *list, uint32_t node)
{
	dl_insert_between(nodes, node, list->sentinel, nodes[list->sentinel].next);
	list->len++;
}

static inline void dl_push_back(struct dl_link *nodes, struct dl_list *list, uint32_t node)
{
	dl_insert_between(nodes, node, nodes[list->sentinel].prev, list->sentinel);
	list->len++;
}

static inline void dl_remove(struct dl_link *nodes, struct dl_list *list, uint32_t node)
{
	uint32_t prev = nodes[node].prev, next = nodes[node].next;

	nodes[prev].next = next;
	nodes[next].prev = prev;
	list->len--;
}

/* Back is the oldest end: the LRU page, or the page under a clock hand. */
static inline uint32_t dl_back(const struct dl_link *nodes, const struct dl_list *list)
{
	return nodes[list->sentinel].prev;
}

static inline uint32_t dl_pop_back(struct dl_link *nodes, struct dl_list *list)
{
	uint32_t node = dl_back(nodes, list);

	dl_remove(nodes, list, node);
	return node;
}

#endif
