/* lru2q: Linux 6.1's active/inactive file LRU with workingset refault
 * detection (mm/swap.c folio_mark_accessed, mm/vmscan.c inactive_is_low /
 * shrink_active_list / folio_check_references, mm/workingset.c).  The
 * references are modelled as read()-style accesses to unmapped page cache:
 * no page-table young bits, only PG_referenced.
 *
 *  - A miss inserts the page at the inactive head; the access then runs
 *    mark_accessed, so the page is inactive,referenced.
 *  - mark_accessed: inactive,unref -> inactive,ref -> active,unref (moved to
 *    the active head, nonresident_age += 1); active,unref -> active,ref.
 *    Hits on a list never move a page within it.
 *  - Reclaim of one page: first deactivate from the active tail to the
 *    inactive head while inactive_is_low() (inactive * ratio < active, ratio
 *    int_sqrt(10 * GB of the two lists) or 1 below 1 GB, 4 KiB pages).
 *    Deactivation keeps PG_referenced (shrink_active_list clears only the
 *    active flag for unmapped pages).  Then evict the inactive tail:
 *    without mapped references folio_check_references() reclaims it even
 *    when PG_referenced is set.  The eviction stores a shadow holding
 *    nonresident_age and then increments nonresident_age.
 *  - Refault: distance = nonresident_age - shadow; if distance <= the
 *    active list size (workingset_size for file pages without swap) the
 *    page is inserted on the active list and nonresident_age += 1.
 *
 * Deviations: reclaim runs one page at a time when memory is full, instead
 * of SWAP_CLUSTER_MAX batches driven by watermarks and scan priorities;
 * there is one node, one memcg, no anon lists and no per-CPU batching;
 * shadows are never reclaimed (the kernel trims shadow nodes under memory
 * pressure) and keep full precision (no bucket_order).  PG_workingset is not
 * modelled because the 6.1 activation decision does not depend on it. */

#include "page_lists.h"
#include "policy.h"

enum lru2q_list { LRU2Q_ABSENT = PAGE_LIST_NONE, LRU2Q_INACTIVE, LRU2Q_ACTIVE, LRU2Q_NLISTS };

#define LRU2Q_REFERENCED PAGE_LIST_FLAG(0)

#define LRU2Q_NO_SHADOW UINT64_MAX
/* 4 KiB pages: 2^18 pages per GiB, as (30 - PAGE_SHIFT) in vmscan.c. */
#define LRU2Q_GB_SHIFT 18

struct lru2q {
	struct page_lists lists;
	uint64_t *shadow;
	uint64_t nonresident_age;
};

static void *lru2q_create(const struct sim_trace *trace, const struct sim_params *params,
			 const void *opts)
{
	const struct sim_array shadow = SIM_ARRAY(struct lru2q, shadow, trace->distinct);
	struct lru2q *q = page_lists_state_alloc(sizeof(struct lru2q), offsetof(struct lru2q, lists),
						 LRU2Q_NLISTS, trace, params, &shadow, 1);

	(void)opts; /* no options */
	if (!q)
		return NULL;
	for (size_t i = 0; i < trace->distinct; i++)
		q->shadow[i] = LRU2Q_NO_SHADOW;
	return q;
}

static unsigned long int_sqrt(unsigned long x)
{
	unsigned long r = 0;

	while ((r + 1) * (r + 1) <= x)
		r++;
	return r;
}

static size_t lru2q_len(const struct lru2q *q, enum lru2q_list l)
{
	return page_list_len(&q->lists, l);
}

static bool lru2q_inactive_is_low(const struct lru2q *q)
{
	unsigned long gb = (unsigned long)(lru2q_len(q, LRU2Q_INACTIVE) + lru2q_len(q, LRU2Q_ACTIVE)) >>
			   LRU2Q_GB_SHIFT;
	unsigned long ratio = gb ? int_sqrt(10 * gb) : 1;

	return lru2q_len(q, LRU2Q_INACTIVE) * ratio < lru2q_len(q, LRU2Q_ACTIVE);
}

static void lru2q_reclaim_one(struct lru2q *q)
{
	uint32_t victim;

	while (lru2q_len(q, LRU2Q_ACTIVE) > 0 && lru2q_inactive_is_low(q))
		page_list_move_oldest(&q->lists, LRU2Q_ACTIVE, LRU2Q_INACTIVE, LRU2Q_REFERENCED);
	victim = page_list_move_oldest(&q->lists, LRU2Q_INACTIVE, LRU2Q_ABSENT, 0);
	q->shadow[victim] = q->nonresident_age++;
}

/* A missed page enters list to, referenced by the access that loads it. */
static void lru2q_insert(struct lru2q *q, uint32_t page, enum lru2q_list to)
{
	q->shadow[page] = LRU2Q_NO_SHADOW;
	page_list_move(&q->lists, page, to, 0);
	q->lists.tag[page] |= LRU2Q_REFERENCED;
}

static bool lru2q_access(void *state, uint32_t page)
{
	struct lru2q *q = state;
	uint8_t s = q->lists.tag[page];

	if (page_list_of(&q->lists, page) == LRU2Q_INACTIVE) {
		if (s & LRU2Q_REFERENCED) {
			page_list_move(&q->lists, page, LRU2Q_ACTIVE, 0);
			q->nonresident_age++;
		} else {
			q->lists.tag[page] = s | LRU2Q_REFERENCED;
		}
		return true;
	}
	if (s != LRU2Q_ABSENT) {
		q->lists.tag[page] = s | LRU2Q_REFERENCED;
		return true;
	}
	if (lru2q_len(q, LRU2Q_INACTIVE) + lru2q_len(q, LRU2Q_ACTIVE) == q->lists.frames)
		lru2q_reclaim_one(q);
	if (q->shadow[page] != LRU2Q_NO_SHADOW &&
	    q->nonresident_age - q->shadow[page] <= lru2q_len(q, LRU2Q_ACTIVE)) {
		q->nonresident_age++;
		lru2q_insert(q, page, LRU2Q_ACTIVE);
		return false;
	}
	lru2q_insert(q, page, LRU2Q_INACTIVE);
	return false;
}

SIM_POLICY(lru2q, "lru2q",
	   "Linux 6.1 active/inactive lists with workingset refault activation",
	   lru2q_create, lru2q_access);
