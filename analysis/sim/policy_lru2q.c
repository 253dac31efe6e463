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

#include "dlist.h"
#include "policy.h"

#define LRU2Q_ABSENT 0
#define LRU2Q_INACTIVE 1
#define LRU2Q_ACTIVE 2
#define LRU2Q_LIST_MASK 3
#define LRU2Q_REFERENCED 4

#define LRU2Q_NO_SHADOW UINT64_MAX
/* 4 KiB pages: 2^18 pages per GiB, as (30 - PAGE_SHIFT) in vmscan.c. */
#define LRU2Q_GB_SHIFT 18

struct lru2q {
	struct dl_link *nodes;
	struct dl_list inactive;
	struct dl_list active;
	uint8_t *state;
	uint64_t *shadow;
	uint64_t nonresident_age;
	size_t capacity;
};

static void *lru2q_create(const struct sim_trace *trace, const struct sim_params *params,
			 const void *opts)
{
	const struct sim_array arrays[] = {
		SIM_ARRAY(struct lru2q, nodes, trace->distinct + 2),
		SIM_ARRAY(struct lru2q, state, trace->distinct),
		SIM_ARRAY(struct lru2q, shadow, trace->distinct),
	};
	struct lru2q *q = SIM_STATE_ALLOC(struct lru2q, arrays);

	(void)opts; /* no options */
	if (!q)
		return NULL;
	q->capacity = params->cache_pages;
	for (size_t i = 0; i < trace->distinct; i++)
		q->shadow[i] = LRU2Q_NO_SHADOW;
	dl_list_init(q->nodes, &q->inactive, (uint32_t)trace->distinct);
	dl_list_init(q->nodes, &q->active, (uint32_t)trace->distinct + 1);
	return q;
}

static unsigned long int_sqrt(unsigned long x)
{
	unsigned long r = 0;

	while ((r + 1) * (r + 1) <= x)
		r++;
	return r;
}

static bool lru2q_inactive_is_low(const struct lru2q *q)
{
	unsigned long gb = (unsigned long)(q->inactive.len + q->active.len) >> LRU2Q_GB_SHIFT;
	unsigned long ratio = gb ? int_sqrt(10 * gb) : 1;

	return q->inactive.len * ratio < q->active.len;
}

static void lru2q_reclaim_one(struct lru2q *q)
{
	uint32_t victim;

	while (q->active.len > 0 && lru2q_inactive_is_low(q)) {
		uint32_t page = dl_pop_back(q->nodes, &q->active);

		q->state[page] = (uint8_t)((q->state[page] & LRU2Q_REFERENCED) | LRU2Q_INACTIVE);
		dl_push_front(q->nodes, &q->inactive, page);
	}
	victim = dl_pop_back(q->nodes, &q->inactive);
	q->state[victim] = LRU2Q_ABSENT;
	q->shadow[victim] = q->nonresident_age++;
}

static bool lru2q_access(void *state, uint32_t page)
{
	struct lru2q *q = state;
	uint8_t s = q->state[page];

	if ((s & LRU2Q_LIST_MASK) == LRU2Q_INACTIVE) {
		if (s & LRU2Q_REFERENCED) {
			dl_remove(q->nodes, &q->inactive, page);
			dl_push_front(q->nodes, &q->active, page);
			q->state[page] = LRU2Q_ACTIVE;
			q->nonresident_age++;
		} else {
			q->state[page] = s | LRU2Q_REFERENCED;
		}
		return true;
	}
	if (s != LRU2Q_ABSENT) {
		q->state[page] = s | LRU2Q_REFERENCED;
		return true;
	}
	if (q->inactive.len + q->active.len == q->capacity)
		lru2q_reclaim_one(q);
	if (q->shadow[page] != LRU2Q_NO_SHADOW &&
	    q->nonresident_age - q->shadow[page] <= q->active.len) {
		q->shadow[page] = LRU2Q_NO_SHADOW;
		q->nonresident_age++;
		dl_push_front(q->nodes, &q->active, page);
		q->state[page] = LRU2Q_ACTIVE | LRU2Q_REFERENCED;
		return false;
	}
	q->shadow[page] = LRU2Q_NO_SHADOW;
	dl_push_front(q->nodes, &q->inactive, page);
	q->state[page] = LRU2Q_INACTIVE | LRU2Q_REFERENCED;
	return false;
}

SIM_POLICY(lru2q, "lru2q",
	   "Linux 6.1 active/inactive lists with workingset refault activation",
	   lru2q_create, lru2q_access);
