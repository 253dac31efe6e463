/* SIEVE (Zhang, Yang, Yue, Vigfusson & Rashmi, NSDI 2024, Algorithm 1).
 *
 * One FIFO queue of resident pages, new pages at the head, and a hand that
 * moves from the tail towards the head.  Each page has a visited bit.
 *  - Hit: set the visited bit; nothing moves.
 *  - Miss: if the cache is full, evict; insert the page at the head with
 *    the bit clear.
 *  - evict: start at the hand (at the tail if the hand is unset); while the
 *    page there is visited, clear its bit and move towards the head
 *    (wrapping from the head to the tail); evict that page and leave the
 *    hand at its neighbour towards the head (unset if there is none).
 * Unlike CLOCK, a kept page stays where it is, so new pages, inserted at
 * the head, are behind every old page the hand has not yet reached.
 *
 * Deviations: none. */

#include "page_lists.h"
#include "policy.h"

enum sieve_list { SIEVE_ABSENT = PAGE_LIST_NONE, SIEVE_QUEUE, SIEVE_NLISTS };

#define SIEVE_NONE UINT32_MAX
#define SIEVE_VISITED PAGE_LIST_FLAG(0)

struct sieve {
	struct page_lists lists; /* the queue: front = head (newest), back = tail */
	uint32_t hand;
};

static void *sieve_create(const struct sim_trace *trace, const struct sim_params *params, const void *opts)
{
	struct sieve *s = PAGE_LISTS_STATE_ALLOC(struct sieve, lists, SIEVE_NLISTS, trace, params);

	(void)opts; /* no options */
	if (s)
		s->hand = SIEVE_NONE;
	return s;
}

/* The neighbour of page towards the head, or SIEVE_NONE at the head. */
static uint32_t sieve_newer(const struct sieve *s, uint32_t page)
{
	uint32_t prev = s->lists.nodes[page].prev;

	return prev == s->lists.list[SIEVE_QUEUE].sentinel ? SIEVE_NONE : prev;
}

static void sieve_evict(struct sieve *s)
{
	uint32_t o = s->hand == SIEVE_NONE ? page_list_back(&s->lists, SIEVE_QUEUE) : s->hand;

	while (s->lists.tag[o] & SIEVE_VISITED) {
		s->lists.tag[o] &= (uint8_t)~SIEVE_VISITED;
		o = sieve_newer(s, o);
		if (o == SIEVE_NONE)
			o = page_list_back(&s->lists, SIEVE_QUEUE);
	}
	s->hand = sieve_newer(s, o);
	page_list_move(&s->lists, o, SIEVE_ABSENT, 0);
}

static bool sieve_access(void *state, uint32_t page)
{
	struct sieve *s = state;

	if (page_list_of(&s->lists, page) == SIEVE_QUEUE) {
		s->lists.tag[page] |= SIEVE_VISITED;
		return true;
	}
	if (page_list_len(&s->lists, SIEVE_QUEUE) == s->lists.frames)
		sieve_evict(s);
	page_list_move(&s->lists, page, SIEVE_QUEUE, 0);
	return false;
}

SIM_POLICY(sieve, "sieve",
	   "SIEVE (Zhang et al. 2024): FIFO queue, visited bits, a hand that keeps pages in place",
	   sieve_create, sieve_access);
