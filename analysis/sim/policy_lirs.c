/* LIRS, Low Inter-reference Recency Set (Jiang & Zhang, SIGMETRICS 2002,
 * section 3).
 *
 * The cache of m frames holds Llirs LIR blocks (small inter-reference
 * recency, never evicted while LIR) and Lhirs = m - Llirs resident HIR
 * blocks; HIR blocks are the eviction candidates.  Two structures:
 *  - stack S: blocks in recency order (top = most recent), LIR blocks and
 *    HIR blocks, resident or not, whose recency is below the LIR block at
 *    the bottom.  "Stack pruning" removes HIR blocks from the bottom until
 *    the bottom is an LIR block, so S is the recency horizon of the LIR
 *    set: a block found in S has an IRR smaller than some LIR block's.
 *  - list Q: the resident HIR blocks, in order of their last access; the
 *    front of Q is evicted.
 * Per reference to X (section 3.3):
 *  - X LIR: hit; move X to the top of S; prune if X was at the bottom.
 *  - X resident HIR: hit; move X to the top of S.  If X was in S it
 *    becomes LIR and leaves Q, and the LIR block at the bottom of S turns
 *    HIR, goes to the end of Q and leaves S; then prune.  Otherwise X stays
 *    HIR and moves to the end of Q.
 *  - X non-resident: miss; the front of Q is evicted (it stays in S, as a
 *    non-resident HIR block, if it is there).  X is loaded and put on the
 *    top of S.  If X was in S it becomes LIR and the bottom LIR block is
 *    demoted as above; otherwise it is a resident HIR block at the end of Q.
 *  - Warm-up: until Llirs blocks are LIR, every missed block becomes LIR.
 * A loop of N > m blocks thus keeps a fixed LIR set and misses N - Llirs
 * blocks per pass.
 *
 * Lhirs is hir% of m, rounded down (default 1%, the paper's setting), at
 * least 1 and at most m - 1; option hir-pages sets it directly.
 *
 * Deviations: S is not bounded (the paper discusses bounding it; its
 * experiments do not); it never holds more entries than distinct pages.
 * Every reference counts: the authors' simulator (lirs.c, 2002) drops a
 * reference to the block referenced just before, which on these traces
 * removes 0 to 104 references per trace, and with them the IRR-0 second
 * reference that promotes a resident HIR block here.  With one frame
 * there is no LIR block (Llirs = 0) and no stack: LIRS holds the last page.
 *
 * Options: hir=PERCENT, hir-pages=N. */

#include "dlist.h"
#include "policy.h"

#define LIRS_RESIDENT 1
#define LIRS_LIR 2
#define LIRS_IN_S 4
#define LIRS_IN_Q 8

struct lirs_opts {
	double hir_percent;
	size_t hir_pages; /* 0: from hir_percent */
};

struct lirs {
	struct dl_link *s_nodes; /* stack S: front = top */
	struct dl_link *q_nodes; /* list Q: front = end (newest), back = front (victim) */
	struct dl_list s;
	struct dl_list q;
	uint8_t *flags;
	size_t capacity;
	size_t llirs;
	size_t n_lir;
	size_t n_resident;
};

static const struct lirs_opts lirs_defaults = { .hir_percent = 1.0, .hir_pages = 0 };

static const struct sim_option lirs_options[] = {
	{ .key = "hir", .help = "HIR share of the cache in percent, rounded down (default 1)",
	  .type = SIM_OPT_DOUBLE, .offset = offsetof(struct lirs_opts, hir_percent), .max = 100.0 },
	{ .key = "hir-pages", .help = "HIR frames Lhirs directly (overrides hir)",
	  .type = SIM_OPT_SIZE, .offset = offsetof(struct lirs_opts, hir_pages),
	  .min_size = 1, .max_size = SIZE_MAX },
	{ .key = NULL },
};

static void *lirs_create(const struct sim_trace *trace, const struct sim_params *params, const void *opts)
{
	const struct lirs_opts *o = opts;
	const struct sim_array arrays[] = {
		SIM_ARRAY(struct lirs, s_nodes, trace->distinct + 1),
		SIM_ARRAY(struct lirs, q_nodes, trace->distinct + 1),
		SIM_ARRAY(struct lirs, flags, trace->distinct),
	};
	struct lirs *l = SIM_STATE_ALLOC(struct lirs, arrays);
	size_t lhirs;

	if (!l)
		return NULL;
	dl_list_init(l->s_nodes, &l->s, (uint32_t)trace->distinct);
	dl_list_init(l->q_nodes, &l->q, (uint32_t)trace->distinct);
	l->capacity = params->cache_pages;
	lhirs = o->hir_pages ? o->hir_pages : sim_frames_percent(l->capacity, o->hir_percent);
	if (lhirs < 1)
		lhirs = 1;
	if (l->capacity > 1 && lhirs > l->capacity - 1)
		lhirs = l->capacity - 1;
	l->llirs = l->capacity > lhirs ? l->capacity - lhirs : 0;
	return l;
}

/* Put page on the top of S (moving it if it is in S already). */
static void lirs_to_top(struct lirs *l, uint32_t page)
{
	if (l->flags[page] & LIRS_IN_S)
		dl_remove(l->s_nodes, &l->s, page);
	dl_push_front(l->s_nodes, &l->s, page);
	l->flags[page] |= LIRS_IN_S;
}

/* Put a resident HIR page at the end of Q (moving it if it is in Q). */
static void lirs_to_q_end(struct lirs *l, uint32_t page)
{
	if (l->flags[page] & LIRS_IN_Q)
		dl_remove(l->q_nodes, &l->q, page);
	dl_push_front(l->q_nodes, &l->q, page);
	l->flags[page] |= LIRS_IN_Q;
}

/* Stack pruning: remove HIR blocks from the bottom of S; a non-resident
 * one is then forgotten. */
static void lirs_prune(struct lirs *l)
{
	while (l->s.len) {
		uint32_t bottom = dl_back(l->s_nodes, &l->s);

		if (l->flags[bottom] & LIRS_LIR)
			return;
		dl_remove(l->s_nodes, &l->s, bottom);
		l->flags[bottom] &= (uint8_t)~LIRS_IN_S;
	}
}

/* page (now on the top of S) becomes LIR; the LIR block at the bottom of S
 * becomes a resident HIR block at the end of Q and leaves S. */
static void lirs_promote(struct lirs *l, uint32_t page)
{
	uint32_t bottom = dl_back(l->s_nodes, &l->s);

	l->flags[page] |= LIRS_LIR;
	dl_remove(l->s_nodes, &l->s, bottom);
	l->flags[bottom] = LIRS_RESIDENT;
	lirs_to_q_end(l, bottom);
	lirs_prune(l);
}

/* A resident HIR page not in S: onto the top of S and the end of Q. */
static void lirs_place_hir(struct lirs *l, uint32_t page)
{
	if (l->llirs)
		lirs_to_top(l, page);
	lirs_to_q_end(l, page);
}

static bool lirs_access(void *state, uint32_t page)
{
	struct lirs *l = state;
	uint8_t f = l->flags[page];

	if (f & LIRS_RESIDENT) {
		if (f & LIRS_LIR) {
			bool was_bottom = dl_back(l->s_nodes, &l->s) == page;

			lirs_to_top(l, page);
			if (was_bottom)
				lirs_prune(l);
		} else if (f & LIRS_IN_S) {
			dl_remove(l->q_nodes, &l->q, page);
			l->flags[page] &= (uint8_t)~LIRS_IN_Q;
			lirs_to_top(l, page);
			lirs_promote(l, page);
		} else {
			lirs_place_hir(l, page);
		}
		return true;
	}
	if (l->n_resident == l->capacity) {
		uint32_t victim = dl_pop_back(l->q_nodes, &l->q);

		l->flags[victim] &= (uint8_t)~(LIRS_RESIDENT | LIRS_IN_Q);
	} else {
		l->n_resident++;
	}
	l->flags[page] |= LIRS_RESIDENT;
	if (l->n_lir < l->llirs) {
		l->flags[page] |= LIRS_LIR;
		l->n_lir++;
		lirs_to_top(l, page);
	} else if (f & LIRS_IN_S) {
		lirs_to_top(l, page);
		lirs_promote(l, page);
	} else {
		lirs_place_hir(l, page);
	}
	return false;
}

SIM_POLICY_OPTS(lirs, "lirs",
		"LIRS (Jiang & Zhang 2002): LIR set, stack S with pruning, HIR queue Q",
		lirs_create, lirs_access, lirs_defaults, lirs_options);
