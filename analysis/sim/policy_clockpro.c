/* CLOCK-Pro (Jiang, Chen & Zhang, USENIX ATC 2005), following the paper's
 * description of the three hands.
 *
 * One circular list holds resident hot pages, resident cold pages and
 * non-resident cold pages that are still in their test period.  The "list
 * head" is the position just behind HAND_hot; pages are inserted there.
 *  - Hit: set the page's reference bit, nothing else.
 *  - Miss: if memory is full, run HAND_cold until one cold page is evicted.
 *    Then, if the page is still in the clock as a non-resident test page,
 *    it is re-accessed within its test period: it becomes hot, moves to the
 *    head and the cold target m_c grows by one; HAND_hot then runs while
 *    hot pages exceed m - m_c.  Otherwise it enters at the head as a cold
 *    page in its test period.  Finally HAND_test runs while there are more
 *    than m non-resident pages.
 *  - HAND_cold, at a resident cold page: referenced and in test -> hot,
 *    m_c + 1, moved to the head, HAND_hot runs; referenced, not in test ->
 *    stays cold, a new test period starts, moved to the head; unreferenced
 *    -> evicted, staying as a non-resident page if in test, else leaving the
 *    clock.  Other pages are passed over.
 *  - HAND_hot, at a hot page: referenced -> bit cleared, stays hot;
 *    unreferenced -> becomes cold (not in test; as in LIRS, a demoted page
 *    has left the stack).  At a cold page it ends the test period (m_c - 1)
 *    and removes the page if non-resident.  It pushes HAND_test ahead of
 *    itself so that the test hand never falls behind into the newest pages.
 *  - HAND_test, at a cold page in test: ends the test period (m_c - 1) and
 *    removes the page if non-resident.
 * m_c is kept within [min_cold, m].  "A cold page accessed during its test
 * period" counts whether it is resident or not (paper, section 4.3).
 *
 * Deviations / choices the paper leaves open: the lower bound min_cold is a
 * parameter (--clockpro-min-cold; default max(1, m/100)); the 2006 Linux
 * port used 2 * pages_high.  m_c starts at min_cold, as in the port.  A newly
 * loaded page starts with its reference bit clear (the loading reference is
 * not counted twice).  --clockpro-port-insert models the kernel ports'
 * insertion instead: a new page starts cold, out of test, with the
 * reference of its load (a young pte in Linux), so HAND_cold's first
 * visit starts its test period and keeps it for a second lap. */
#include <stdlib.h>

#include "policy.h"

#define CP_NONE UINT32_MAX

#define CP_IN_CLOCK 1
#define CP_RESIDENT 2
#define CP_HOT 4
#define CP_TEST 8
#define CP_REF 16

struct clockpro {
	uint32_t *next;
	uint32_t *prev;
	uint8_t *flags;
	uint32_t hand_hot;
	uint32_t hand_cold;
	uint32_t hand_test;
	size_t capacity;  /* m */
	size_t n_hot;
	size_t n_cold;    /* resident cold pages */
	size_t n_nonres;  /* non-resident test pages in the clock */
	size_t cold_target;
	size_t min_cold;
	bool port_insert;
};

static void *clockpro_create(const struct sim_trace *trace, const struct sim_params *params)
{
	struct clockpro *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->next = malloc(trace->distinct * sizeof(uint32_t));
	c->prev = malloc(trace->distinct * sizeof(uint32_t));
	c->flags = calloc(trace->distinct, 1);
	if (!c->next || !c->prev || !c->flags) {
		free(c->next);
		free(c->prev);
		free(c->flags);
		free(c);
		return NULL;
	}
	c->capacity = params->cache_pages;
	c->min_cold = params->clockpro_min_cold ? params->clockpro_min_cold : c->capacity / 100;
	c->port_insert = params->clockpro_port_insert;
	if (c->min_cold < 1)
		c->min_cold = 1;
	if (c->min_cold > c->capacity)
		c->min_cold = c->capacity;
	c->cold_target = c->min_cold;
	c->hand_hot = c->hand_cold = c->hand_test = CP_NONE;
	return c;
}

static void cp_insert_head(struct clockpro *c, uint32_t page)
{
	if (c->hand_hot == CP_NONE) {
		c->next[page] = c->prev[page] = page;
		c->hand_hot = c->hand_cold = c->hand_test = page;
		return;
	}
	uint32_t after = c->hand_hot, before = c->prev[after];

	c->prev[page] = before;
	c->next[page] = after;
	c->next[before] = page;
	c->prev[after] = page;
}

static void cp_unlink(struct clockpro *c, uint32_t page)
{
	uint32_t next = c->next[page];

	if (next == page) {
		c->hand_hot = c->hand_cold = c->hand_test = CP_NONE;
		return;
	}
	if (c->hand_hot == page)
		c->hand_hot = next;
	if (c->hand_cold == page)
		c->hand_cold = next;
	if (c->hand_test == page)
		c->hand_test = next;
	c->next[c->prev[page]] = next;
	c->prev[next] = c->prev[page];
}

static void cp_move_to_head(struct clockpro *c, uint32_t page)
{
	cp_unlink(c, page);
	cp_insert_head(c, page);
}

static void cp_cold_target_up(struct clockpro *c)
{
	if (c->cold_target < c->capacity)
		c->cold_target++;
}

static void cp_cold_target_down(struct clockpro *c)
{
	if (c->cold_target > c->min_cold)
		c->cold_target--;
}

/* End the test period of cold page p; drop it from the clock if it is not
 * resident.  Returns true if it was removed (the hands moved past it). */
static bool cp_end_test(struct clockpro *c, uint32_t page)
{
	c->flags[page] &= (uint8_t)~CP_TEST;
	cp_cold_target_down(c);
	if (c->flags[page] & CP_RESIDENT)
		return false;
	cp_unlink(c, page);
	c->flags[page] = 0;
	c->n_nonres--;
	return true;
}

static void cp_hand_hot_step(struct clockpro *c)
{
	uint32_t page = c->hand_hot;
	uint8_t f = c->flags[page];

	if (f & CP_HOT) {
		if (f & CP_REF) {
			c->flags[page] = (uint8_t)(f & ~CP_REF);
		} else {
			c->flags[page] = (uint8_t)(f & ~CP_HOT);
			c->n_hot--;
			c->n_cold++;
		}
	} else if ((f & CP_TEST) && cp_end_test(c, page)) {
		return;
	}
	c->hand_hot = c->next[page];
	if (c->hand_test == page)
		c->hand_test = c->hand_hot;
}

static void cp_run_hand_hot(struct clockpro *c)
{
	while (c->n_hot > c->capacity - c->cold_target)
		cp_hand_hot_step(c);
}

static void cp_run_hand_test(struct clockpro *c)
{
	while (c->n_nonres > c->capacity) {
		uint32_t page = c->hand_test;
		uint8_t f = c->flags[page];

		if (!(f & CP_HOT) && (f & CP_TEST) && cp_end_test(c, page))
			continue;
		c->hand_test = c->next[page];
	}
}

static void cp_evict_one(struct clockpro *c)
{
	for (;;) {
		uint32_t page = c->hand_cold;
		uint8_t f = c->flags[page];

		if ((f & (CP_RESIDENT | CP_HOT)) != CP_RESIDENT) {
			c->hand_cold = c->next[page];
			continue;
		}
		if (f & CP_REF) {
			if (f & CP_TEST) {
				c->flags[page] = CP_IN_CLOCK | CP_RESIDENT | CP_HOT;
				c->n_cold--;
				c->n_hot++;
				cp_cold_target_up(c);
				cp_move_to_head(c, page);
				cp_run_hand_hot(c);
			} else {
				c->flags[page] = CP_IN_CLOCK | CP_RESIDENT | CP_TEST;
				cp_move_to_head(c, page);
			}
			continue;
		}
		c->n_cold--;
		if (f & CP_TEST) {
			c->flags[page] = CP_IN_CLOCK | CP_TEST;
			c->n_nonres++;
			c->hand_cold = c->next[page];
		} else {
			cp_unlink(c, page);
			c->flags[page] = 0;
		}
		return;
	}
}

static bool clockpro_access(void *state, uint32_t page)
{
	struct clockpro *c = state;

	if (c->flags[page] & CP_RESIDENT) {
		c->flags[page] |= CP_REF;
		return true;
	}
	if (c->n_hot + c->n_cold == c->capacity)
		cp_evict_one(c);
	if (c->flags[page] & CP_IN_CLOCK) {
		/* Non-resident and still in its test period. */
		cp_unlink(c, page);
		c->n_nonres--;
		c->flags[page] = CP_IN_CLOCK | CP_RESIDENT | CP_HOT;
		cp_insert_head(c, page);
		c->n_hot++;
		cp_cold_target_up(c);
		cp_run_hand_hot(c);
	} else {
		c->flags[page] = CP_IN_CLOCK | CP_RESIDENT |
				 (c->port_insert ? CP_REF : CP_TEST);
		cp_insert_head(c, page);
		c->n_cold++;
	}
	cp_run_hand_test(c);
	return false;
}

static void clockpro_destroy(void *state)
{
	struct clockpro *c = state;

	free(c->next);
	free(c->prev);
	free(c->flags);
	free(c);
}

const struct sim_policy policy_clockpro = {
	.name = "clockpro",
	.summary = "CLOCK-Pro (Jiang, Chen, Zhang 2005), adaptive cold target",
	.create = clockpro_create,
	.access = clockpro_access,
	.destroy = clockpro_destroy,
};
