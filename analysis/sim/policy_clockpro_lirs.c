/* clockpro-lirs: CLOCK-Pro whose test periods follow LIRS's stack-bottom
 * rule, restricted to what a Linux 6.1 port can keep: this lab's design for
 * issue 14 (BENCHMARKS.md, "Models near OPT").
 *
 * LIRS (Jiang & Zhang 2002) promotes a block whose previous access is more
 * recent than the last access of the oldest LIR block (the bottom of its
 * stack S); CLOCK-Pro (Jiang, Chen & Zhang 2005) approximates "more recent
 * than" by a test period that HAND_hot and HAND_test end.  A kernel has no
 * stack and cannot enumerate the non-resident pages (shadow entries), so
 * HAND_test cannot run.  This model replaces the test hand by LIRS's own
 * rule, computed from counters: a refaulting page is "in S" if its
 * previous access is more recent than the moment the page now at the tail
 * of the hot list was last placed at the head.
 *
 * State, as a kernel would hold it per lruvec and LRU type:
 *   hot list (active) and cold list (inactive), each a clock: pages enter at
 *     the head, a hand takes them from the tail;
 *   per page: REF (young pte / PG_referenced, set by an access, cleared by
 *     a hand), TEST (a private bit: cold page in its test period), HOT;
 *   counters: E, evictions so far (the non-resident clock); A, placements
 *     at the hot head so far; a ring of 16 checkpoints (A, E); m_c.
 *   token of an evicted page (32 bits): TEST and a 31-bit stamp of E at its
 *     last access, estimated as E - (cold pages) at eviction (the cold list
 *     is a FIFO of pages since their last access).
 * Rules (LIRS rule each approximates, in brackets):
 *  - m_c, the cold target, is fixed: hir% of the frames (default 1%), at
 *    least one reclaim batch [Lhirs, 1% in LIRS; CLOCK-Pro adapts it].
 *    A batch larger than the cold list would demote hot pages to refill
 *    it at every reclaim (the kernel port's minimum is SWAP_CLUSTER_MAX).
 *  - Warm-up: until the first eviction a new page goes hot while the cold
 *    list holds at least m_c pages [LIR set fills first].
 *  - HAND_cold (memory full; batch pages per run, default 32 as
 *    SWAP_CLUSTER_MAX): REF and TEST -> hot, to the hot head [resident HIR
 *    in S accessed -> LIR]; REF, not TEST -> TEST, REF cleared, to the cold
 *    head [resident HIR not in S accessed -> top of S, end of Q];
 *    otherwise evicted with its token, E + 1 [front of Q evicted].
 *  - HAND_hot runs while the cold list and the free frames together are
 *    below m_c (free frames are about to be filled by cold pages): REF -> REF cleared, to
 *    the hot head (A + 1, a checkpoint every n_hot/14 placements); not REF
 *    -> cold, not TEST, to the cold head [bottom LIR -> HIR, leaves S].
 *  - Refault with token (TEST, stamp): the hot list's age is E now minus E
 *    at the checkpoint at or after the hot tail's placement (its ordinal is
 *    A - n_hot); the page is in S if TEST is set and E - stamp < age: it
 *    goes hot [non-resident HIR in S -> LIR; its IRR is below the bottom
 *    LIR's recency]; otherwise it goes cold, in test [not in S -> HIR, top
 *    of S].
 *  - New page: cold, in test [a new HIR block is on top of S]; option
 *    insert=port: cold, not in test, REF set by the access that loaded it
 *    (the young pte a kernel sees), as the lab's kernel port inserts.
 *
 * Where it departs from LIRS, and why (BENCHMARKS.md measures each):
 *  - The bottom LIR's recency is the hot tail's last placement by a hand,
 *    not its last access: a hot page referenced after HAND_hot's last
 *    visit still looks as old as that visit.  HAND_hot moves only when a
 *    promotion needs room, so on a steady loop the hot tail's age grows
 *    until a refault looks "in S", and the promotion's HAND_hot run then
 *    rotates referenced hot pages, refreshing the age.
 *  - IRR is counted in evictions, not in distinct references: hits on hot
 *    pages do not advance E.  Both sides of the comparison use E.
 *  - The hot list is a clock, so LIRS's exact recency order among hot
 *    pages is lost; a checkpoint is at most n_hot/14 placements off.
 *  - Reclaim runs in batches (option batch), so up to batch - 1 frames may
 *    stand free between two runs of HAND_cold.
 * Not modelled: anon and file share reclaim in 6.1 (get_scan_count
 * interleaves them); a string holds one type, so one clock pair is
 * modelled.
 *
 * Options: hir=PERCENT, batch=PAGES, insert=paper|port. */
#include <stdlib.h>

#include "dlist.h"
#include "policy.h"

#define CL_RESIDENT 1
#define CL_HOT 2
#define CL_TEST 4
#define CL_REF 8
#define CL_TOKEN_TEST 16 /* non-resident: the token's TEST bit */

#define CL_STAMP_MASK 0x7fffffffu
#define CL_CHECKPOINTS 16

enum cl_insert { CL_INSERT_PAPER, CL_INSERT_PORT };

struct clockpro_lirs_opts {
	double hir_percent;
	size_t batch;
	unsigned insert; /* enum cl_insert */
};

struct clockpro_lirs {
	struct dl_link *nodes; /* front = head, back = tail (the hand) */
	struct dl_list hot;
	struct dl_list cold;
	uint8_t *flags;
	uint32_t *stamp;       /* token stamp of a non-resident page */
	size_t capacity;
	size_t cold_target;
	size_t batch;
	bool port_insert;
	bool evicted_any;
	uint64_t e;            /* evictions */
	uint64_t a;            /* placements at the hot head */
	uint64_t ck_a[CL_CHECKPOINTS];
	uint64_t ck_e[CL_CHECKPOINTS];
	unsigned ck_next;
	unsigned ck_count;
};

static const char *const cl_inserts[] = { "paper", "port", NULL };

static const struct clockpro_lirs_opts clockpro_lirs_defaults = {
	.hir_percent = 1.0,
	.batch = 32,
	.insert = CL_INSERT_PAPER,
};

static const struct sim_option clockpro_lirs_options[] = {
	{ .key = "hir", .help = "cold target m_c in percent of the frames, rounded down, at least 1 (default 1)",
	  .type = SIM_OPT_DOUBLE, .offset = offsetof(struct clockpro_lirs_opts, hir_percent), .max = 100.0 },
	{ .key = "batch", .help = "pages HAND_cold frees per run when memory is full (default 32)",
	  .type = SIM_OPT_SIZE, .offset = offsetof(struct clockpro_lirs_opts, batch),
	  .min_size = 1, .max_size = 1 << 20 },
	{ .key = "insert", .help = "paper (new pages cold, in test) or port (cold, out of test, referenced)",
	  .type = SIM_OPT_CHOICE, .offset = offsetof(struct clockpro_lirs_opts, insert),
	  .choices = cl_inserts },
	{ .key = NULL },
};

static void *clockpro_lirs_create(const struct sim_trace *trace, const struct sim_params *params,
				  const void *opts)
{
	const struct clockpro_lirs_opts *o = opts;
	const struct sim_array arrays[] = {
		SIM_ARRAY(struct clockpro_lirs, nodes, trace->distinct + 2),
		SIM_ARRAY(struct clockpro_lirs, flags, trace->distinct),
		SIM_ARRAY(struct clockpro_lirs, stamp, trace->distinct),
	};
	struct clockpro_lirs *c = SIM_STATE_ALLOC(struct clockpro_lirs, arrays);

	if (!c)
		return NULL;
	dl_list_init(c->nodes, &c->hot, (uint32_t)trace->distinct);
	dl_list_init(c->nodes, &c->cold, (uint32_t)trace->distinct + 1);
	c->capacity = params->cache_pages;
	c->batch = o->batch < c->capacity ? o->batch : c->capacity;
	c->cold_target = sim_frames_percent(c->capacity, o->hir_percent);
	if (c->cold_target < c->batch)
		c->cold_target = c->batch;
	c->port_insert = o->insert == CL_INSERT_PORT;
	return c;
}

/* A page was placed at the hot head: count it, checkpoint (A, E) every
 * n_hot/(CL_CHECKPOINTS - 2) placements so the ring spans the hot list. */
static void cl_hot_placed(struct clockpro_lirs *c)
{
	uint64_t spacing = c->hot.len / (CL_CHECKPOINTS - 2) + 1;
	unsigned last = (c->ck_next + CL_CHECKPOINTS - 1) % CL_CHECKPOINTS;

	c->a++;
	if (c->ck_count && c->a - c->ck_a[last] < spacing)
		return;
	c->ck_a[c->ck_next] = c->a;
	c->ck_e[c->ck_next] = c->e;
	c->ck_next = (c->ck_next + 1) % CL_CHECKPOINTS;
	if (c->ck_count < CL_CHECKPOINTS)
		c->ck_count++;
}

/* Evictions since the hot tail was placed, from the oldest checkpoint at or
 * after its placement (an underestimate by at most one spacing). */
static uint64_t cl_hot_age(const struct clockpro_lirs *c)
{
	uint64_t tail = c->a - c->hot.len + 1;

	for (unsigned i = 0; i < c->ck_count; i++) {
		unsigned k = (c->ck_next + CL_CHECKPOINTS - c->ck_count + i) % CL_CHECKPOINTS;

		if (c->ck_a[k] >= tail)
			return c->e - c->ck_e[k];
	}
	return 0;
}

static void cl_to_hot_head(struct clockpro_lirs *c, uint32_t page)
{
	dl_push_front(c->nodes, &c->hot, page);
	c->flags[page] = CL_RESIDENT | CL_HOT;
	cl_hot_placed(c);
}

/* HAND_hot, while the cold list (with the free frames) is below its target. */
static void cl_run_hand_hot(struct clockpro_lirs *c)
{
	while (c->capacity - c->hot.len < c->cold_target && c->hot.len) {
		uint32_t page = dl_pop_back(c->nodes, &c->hot);

		if (c->flags[page] & CL_REF) {
			cl_to_hot_head(c, page);
		} else {
			c->flags[page] = CL_RESIDENT;
			dl_push_front(c->nodes, &c->cold, page);
		}
	}
}

/* HAND_cold: evict one cold page. */
static void cl_evict_one(struct clockpro_lirs *c)
{
	for (;;) {
		uint32_t page = dl_pop_back(c->nodes, &c->cold);
		uint8_t f = c->flags[page];

		if ((f & (CL_REF | CL_TEST)) == (CL_REF | CL_TEST)) {
			cl_to_hot_head(c, page);
			cl_run_hand_hot(c);
			continue;
		}
		if (f & CL_REF) {
			c->flags[page] = CL_RESIDENT | CL_TEST;
			dl_push_front(c->nodes, &c->cold, page);
			continue;
		}
		c->stamp[page] = (uint32_t)(c->e - c->cold.len) & CL_STAMP_MASK;
		c->flags[page] = (f & CL_TEST) ? CL_TOKEN_TEST : 0;
		c->e++;
		c->evicted_any = true;
		return;
	}
}

static bool cl_in_stack(const struct clockpro_lirs *c, uint32_t page)
{
	uint32_t distance = ((uint32_t)c->e - c->stamp[page]) & CL_STAMP_MASK;

	return (c->flags[page] & CL_TOKEN_TEST) && distance < cl_hot_age(c);
}

static bool clockpro_lirs_access(void *state, uint32_t page)
{
	struct clockpro_lirs *c = state;
	bool in_stack;

	if (c->flags[page] & CL_RESIDENT) {
		c->flags[page] |= CL_REF;
		return true;
	}
	if (c->hot.len + c->cold.len == c->capacity)
		for (size_t i = 0; i < c->batch && c->cold.len; i++)
			cl_evict_one(c);
	in_stack = cl_in_stack(c, page);
	if (in_stack || (!c->evicted_any && c->cold.len >= c->cold_target)) {
		cl_to_hot_head(c, page);
	} else {
		c->flags[page] = CL_RESIDENT | (c->port_insert ? CL_REF : CL_TEST);
		dl_push_front(c->nodes, &c->cold, page);
	}
	cl_run_hand_hot(c);
	return false;
}

SIM_POLICY_OPTS(clockpro_lirs, "clockpro-lirs",
		"CLOCK-Pro with LIRS's stack-bottom test, within a 6.1 port's limits (this lab)",
		clockpro_lirs_create, clockpro_lirs_access, clockpro_lirs_defaults, clockpro_lirs_options);
