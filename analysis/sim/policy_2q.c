/* 2Q, the full version (Johnson & Shasha, VLDB 1994, section 2.2, "Full
 * 2Q").
 *
 * Am is an LRU list of pages referenced again after their first stay; A1in
 * is a FIFO of pages on their first stay; A1out is a FIFO of the ids of
 * pages paged out of A1in (no frames).  Kin and Kout bound A1in and A1out.
 *  - x in Am: hit, move x to the head of Am.
 *  - x in A1in: hit, nothing moves (a correlated reference).
 *  - x in A1out: miss, reclaim a frame, put x at the head of Am.
 *  - otherwise: miss, reclaim a frame, put x at the head of A1in.
 *  - reclaim: if a frame is free use it; else if |A1in| > Kin page out the
 *    tail of A1in and put its id at the head of A1out, dropping the tail of
 *    A1out when |A1out| > Kout; else page out the tail of Am (its id is not
 *    remembered).
 * Kin and Kout default to the paper's recommendation, 25% and 50% of the
 * page slots (rounded down; options kin and kout, in percent).
 *
 * Deviations: none.  With one frame, Kin = 0 and Kout = 0: 2Q holds the
 * last page, as LRU does.
 *
 * Options: kin=PERCENT, kout=PERCENT. */
#include "page_lists.h"
#include "policy.h"

enum twoq_list { TWOQ_NONE = PAGE_LIST_NONE, TWOQ_AM, TWOQ_A1IN, TWOQ_A1OUT, TWOQ_NLISTS };

struct twoq_opts {
	double kin_percent;
	double kout_percent;
};

struct twoq {
	struct page_lists lists;
	size_t kin;
	size_t kout;
};

static const struct twoq_opts twoq_defaults = { .kin_percent = 25.0, .kout_percent = 50.0 };

static const struct sim_option twoq_options[] = {
	{ .key = "kin", .help = "A1in bound Kin in percent of the frames (default 25)",
	  .type = SIM_OPT_DOUBLE, .offset = offsetof(struct twoq_opts, kin_percent), .max = 100.0 },
	{ .key = "kout", .help = "A1out bound Kout in percent of the frames (default 50)",
	  .type = SIM_OPT_DOUBLE, .offset = offsetof(struct twoq_opts, kout_percent), .max = 1000.0 },
	{ .key = NULL },
};

static void *twoq_create(const struct sim_trace *trace, const struct sim_params *params, const void *opts)
{
	const struct twoq_opts *o = opts;
	struct twoq *q = PAGE_LISTS_STATE_ALLOC(struct twoq, lists, TWOQ_NLISTS, trace, params);

	if (!q)
		return NULL;
	q->kin = sim_frames_percent(params->cache_pages, o->kin_percent);
	q->kout = sim_frames_percent(params->cache_pages, o->kout_percent);
	/* Kin = c would leave Am no frame once A1in is full: keep one. */
	if (q->kin >= params->cache_pages)
		q->kin = params->cache_pages - 1;
	return q;
}

static size_t twoq_len(const struct twoq *q, enum twoq_list l)
{
	return page_list_len(&q->lists, l);
}

/* Move the tail of list from to the head of list to, or out of every list. */
static void twoq_move_tail(struct twoq *q, enum twoq_list from, enum twoq_list to)
{
	page_list_move_oldest(&q->lists, from, to, 0);
}

static void twoq_reclaim(struct twoq *q)
{
	if (twoq_len(q, TWOQ_AM) + twoq_len(q, TWOQ_A1IN) < q->lists.frames)
		return;
	if (twoq_len(q, TWOQ_A1IN) > q->kin) {
		twoq_move_tail(q, TWOQ_A1IN, TWOQ_A1OUT);
		if (twoq_len(q, TWOQ_A1OUT) > q->kout)
			twoq_move_tail(q, TWOQ_A1OUT, TWOQ_NONE);
	} else {
		twoq_move_tail(q, TWOQ_AM, TWOQ_NONE);
	}
}

static bool twoq_access(void *state, uint32_t page)
{
	struct twoq *q = state;
	enum twoq_list where = (enum twoq_list)page_list_of(&q->lists, page);

	if (where == TWOQ_AM) {
		page_list_move(&q->lists, page, TWOQ_AM, 0);
		return true;
	}
	if (where == TWOQ_A1IN)
		return true;
	twoq_reclaim(q);
	page_list_move(&q->lists, page, where == TWOQ_A1OUT ? TWOQ_AM : TWOQ_A1IN, 0);
	return false;
}

SIM_POLICY_OPTS(2q, "2q",
		"full 2Q (Johnson & Shasha 1994): A1in FIFO, A1out ghosts, Am LRU",
		twoq_create, twoq_access, twoq_defaults, twoq_options);
