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
#include <stdlib.h>

#include "dlist.h"
#include "policy.h"

enum twoq_list { TWOQ_NONE, TWOQ_AM, TWOQ_A1IN, TWOQ_A1OUT, TWOQ_NLISTS };

struct twoq_opts {
	double kin_percent;
	double kout_percent;
};

struct twoq {
	struct dl_link *nodes;
	struct dl_list lists[TWOQ_NLISTS];
	uint8_t *where;
	size_t capacity;
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
	const struct sim_array arrays[] = {
		SIM_ARRAY(struct twoq, nodes, trace->distinct + TWOQ_NLISTS),
		SIM_ARRAY(struct twoq, where, trace->distinct),
	};
	struct twoq *q = SIM_STATE_ALLOC(struct twoq, arrays);

	if (!q)
		return NULL;
	for (int i = 0; i < TWOQ_NLISTS; i++)
		dl_list_init(q->nodes, &q->lists[i], (uint32_t)(trace->distinct + (size_t)i));
	q->capacity = params->cache_pages;
	q->kin = (size_t)((double)q->capacity * o->kin_percent / 100.0);
	q->kout = (size_t)((double)q->capacity * o->kout_percent / 100.0);
	/* Kin = c would leave Am no frame once A1in is full: keep one. */
	if (q->kin >= q->capacity)
		q->kin = q->capacity - 1;
	return q;
}

static void twoq_move(struct twoq *q, uint32_t page, enum twoq_list to)
{
	enum twoq_list from = (enum twoq_list)q->where[page];

	if (from != TWOQ_NONE)
		dl_remove(q->nodes, &q->lists[from], page);
	q->where[page] = (uint8_t)to;
	if (to != TWOQ_NONE)
		dl_push_front(q->nodes, &q->lists[to], page);
}

static void twoq_reclaim(struct twoq *q)
{
	if (q->lists[TWOQ_AM].len + q->lists[TWOQ_A1IN].len < q->capacity)
		return;
	if (q->lists[TWOQ_A1IN].len > q->kin) {
		twoq_move(q, dl_back(q->nodes, &q->lists[TWOQ_A1IN]), TWOQ_A1OUT);
		if (q->lists[TWOQ_A1OUT].len > q->kout)
			twoq_move(q, dl_back(q->nodes, &q->lists[TWOQ_A1OUT]), TWOQ_NONE);
	} else {
		twoq_move(q, dl_back(q->nodes, &q->lists[TWOQ_AM]), TWOQ_NONE);
	}
}

static bool twoq_access(void *state, uint32_t page)
{
	struct twoq *q = state;
	enum twoq_list where = (enum twoq_list)q->where[page];

	if (where == TWOQ_AM) {
		twoq_move(q, page, TWOQ_AM);
		return true;
	}
	if (where == TWOQ_A1IN)
		return true;
	twoq_reclaim(q);
	twoq_move(q, page, where == TWOQ_A1OUT ? TWOQ_AM : TWOQ_A1IN);
	return false;
}

SIM_POLICY_OPTS(2q, "2q",
		"full 2Q (Johnson & Shasha 1994): A1in FIFO, A1out ghosts, Am LRU",
		twoq_create, twoq_access, twoq_defaults, twoq_options);
