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

#include "dlist.h"
#include "policy.h"

#define SIEVE_NONE UINT32_MAX
#define SIEVE_RESIDENT 1
#define SIEVE_VISITED 2

struct sieve {
	struct dl_link *nodes; /* front = head (newest), back = tail */
	struct dl_list queue;
	uint8_t *state;
	uint32_t hand;
	size_t capacity;
};

static void *sieve_create(const struct sim_trace *trace, const struct sim_params *params, const void *opts)
{
	const struct sim_array arrays[] = {
		SIM_ARRAY(struct sieve, nodes, trace->distinct + 1),
		SIM_ARRAY(struct sieve, state, trace->distinct),
	};
	struct sieve *s = SIM_STATE_ALLOC(struct sieve, arrays);

	(void)opts; /* no options */
	if (!s)
		return NULL;
	dl_list_init(s->nodes, &s->queue, (uint32_t)trace->distinct);
	s->capacity = params->cache_pages;
	s->hand = SIEVE_NONE;
	return s;
}

/* The neighbour of page towards the head, or SIEVE_NONE at the head. */
static uint32_t sieve_newer(const struct sieve *s, uint32_t page)
{
	uint32_t prev = s->nodes[page].prev;

	return prev == s->queue.sentinel ? SIEVE_NONE : prev;
}

static void sieve_evict(struct sieve *s)
{
	uint32_t o = s->hand == SIEVE_NONE ? dl_back(s->nodes, &s->queue) : s->hand;

	while (s->state[o] & SIEVE_VISITED) {
		s->state[o] = SIEVE_RESIDENT;
		o = sieve_newer(s, o);
		if (o == SIEVE_NONE)
			o = dl_back(s->nodes, &s->queue);
	}
	s->hand = sieve_newer(s, o);
	dl_remove(s->nodes, &s->queue, o);
	s->state[o] = 0;
}

static bool sieve_access(void *state, uint32_t page)
{
	struct sieve *s = state;

	if (s->state[page]) {
		s->state[page] = SIEVE_RESIDENT | SIEVE_VISITED;
		return true;
	}
	if (s->queue.len == s->capacity)
		sieve_evict(s);
	dl_push_front(s->nodes, &s->queue, page);
	s->state[page] = SIEVE_RESIDENT;
	return false;
}

SIM_POLICY(sieve, "sieve",
	   "SIEVE (Zhang et al. 2024): FIFO queue, visited bits, a hand that keeps pages in place",
	   sieve_create, sieve_access);
