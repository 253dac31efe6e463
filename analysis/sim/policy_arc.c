/* ARC, Adaptive Replacement Cache (Megiddo & Modha, FAST 2003, Fig. 4).
 *
 * T1 holds pages seen once recently, T2 pages seen at least twice; B1 and
 * B2 remember pages evicted from them (ghosts).  |T1| + |T2| <= c and
 * |T1| + |B1| <= c, |T1| + |T2| + |B1| + |B2| <= 2c.  p is the target size
 * of T1.
 *  - x in T1 or T2: hit, move x to the MRU end of T2.
 *  - x in B1: p = min(c, p + d1), d1 = 1 if |B1| >= |B2| else |B2|/|B1|;
 *    REPLACE; x to the MRU end of T2.
 *  - x in B2: p = max(0, p - d2), d2 = 1 if |B2| >= |B1| else |B1|/|B2|;
 *    REPLACE; x to the MRU end of T2.
 *  - otherwise: if |T1| + |B1| = c: if |T1| < c, drop the LRU page of B1
 *    and REPLACE, else drop the LRU page of T1 (not remembered);
 *    else if |T1| + |T2| + |B1| + |B2| >= c: drop the LRU page of B2 if
 *    that total is 2c, and REPLACE.  x to the MRU end of T1.
 *  - REPLACE: if |T1| >= 1 and (|T1| > p or (x in B2 and |T1| = p)), move
 *    the LRU page of T1 to the MRU end of B1, else the LRU page of T2 to
 *    the MRU end of B2.
 * p is real, as in the paper (the deltas are real quotients).
 *
 * Deviations: none.  (Every REPLACE of the listing happens with the cache
 * full: before the first eviction B1 and B2 are empty, so the conditions
 * that call it imply |T1| + |T2| = c, and a full ARC cache stays full.) */

#include "page_lists.h"
#include "policy.h"

enum arc_list { ARC_NONE = PAGE_LIST_NONE, ARC_T1, ARC_T2, ARC_B1, ARC_B2, ARC_NLISTS };

struct arc {
	struct page_lists lists;
	double p;
};

static void *arc_create(const struct sim_trace *trace, const struct sim_params *params, const void *opts)
{
	(void)opts; /* no options */
	return PAGE_LISTS_STATE_ALLOC(struct arc, lists, ARC_NLISTS, trace, params);
}

static size_t arc_len(const struct arc *a, enum arc_list l)
{
	return page_list_len(&a->lists, l);
}

/* Move page to the MRU end (front) of list to, or out of every list. */
static void arc_move(struct arc *a, uint32_t page, enum arc_list to)
{
	page_list_move(&a->lists, page, to, 0);
}

/* Move the LRU page of list from to the MRU end of list to, or out of
 * every list. */
static void arc_move_lru(struct arc *a, enum arc_list from, enum arc_list to)
{
	page_list_move_oldest(&a->lists, from, to, 0);
}

static void arc_replace(struct arc *a, bool in_b2)
{
	double t1 = (double)arc_len(a, ARC_T1);

	if (t1 >= 1 && (t1 > a->p || (in_b2 && t1 == a->p)))
		arc_move_lru(a, ARC_T1, ARC_B1);
	else
		arc_move_lru(a, ARC_T2, ARC_B2);
}

static bool arc_access(void *state, uint32_t page)
{
	struct arc *a = state;
	enum arc_list where = (enum arc_list)page_list_of(&a->lists, page);
	size_t c = a->lists.frames;

	if (where == ARC_T1 || where == ARC_T2) {
		arc_move(a, page, ARC_T2);
		return true;
	}
	if (where == ARC_B1) {
		size_t b1 = arc_len(a, ARC_B1), b2 = arc_len(a, ARC_B2);
		double d = b1 >= b2 ? 1.0 : (double)b2 / (double)b1;

		a->p = a->p + d < (double)c ? a->p + d : (double)c;
		arc_replace(a, false);
		arc_move(a, page, ARC_T2);
		return false;
	}
	if (where == ARC_B2) {
		size_t b1 = arc_len(a, ARC_B1), b2 = arc_len(a, ARC_B2);
		double d = b2 >= b1 ? 1.0 : (double)b1 / (double)b2;

		a->p = a->p - d > 0.0 ? a->p - d : 0.0;
		arc_replace(a, true);
		arc_move(a, page, ARC_T2);
		return false;
	}
	if (arc_len(a, ARC_T1) + arc_len(a, ARC_B1) == c) {
		if (arc_len(a, ARC_T1) < c) {
			arc_move_lru(a, ARC_B1, ARC_NONE);
			arc_replace(a, false);
		} else {
			arc_move_lru(a, ARC_T1, ARC_NONE);
		}
	} else {
		size_t total = arc_len(a, ARC_T1) + arc_len(a, ARC_T2) + arc_len(a, ARC_B1) +
			       arc_len(a, ARC_B2);

		if (total >= c) {
			if (total == 2 * c)
				arc_move_lru(a, ARC_B2, ARC_NONE);
			arc_replace(a, false);
		}
	}
	arc_move(a, page, ARC_T1);
	return false;
}

SIM_POLICY(arc, "arc",
	   "ARC (Megiddo & Modha 2003): T1/T2 LRU lists, B1/B2 ghosts, adaptive p",
	   arc_create, arc_access);
