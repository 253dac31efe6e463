/* OPT / MIN (Belady 1966): on a miss with memory full, evict the resident
 * page whose next reference lies furthest in the future.
 *
 * The trace's next_use array (one backward pass) gives each reference's
 * successor, so the model keeps the resident pages in an indexed max-heap
 * keyed by next-use position: a hit raises the page's key (sift up), a miss
 * replaces the root (sift down).  O(log c) per reference, no lazy deletion.
 * Pages never used again all carry the key TRACE_NO_NEXT_USE; which of them
 * goes first does not change the miss count. */

#include "policy.h"

#define OPT_NOT_RESIDENT UINT32_MAX

struct opt {
	const uint32_t *next_use;
	size_t now;           /* index of the reference being processed */
	size_t capacity;
	size_t used;
	uint32_t *heap_page;  /* heap slot -> page */
	uint32_t *heap_key;   /* heap slot -> next use of that page */
	uint32_t *slot_of;    /* page -> heap slot, or OPT_NOT_RESIDENT */
};

static void *opt_create(const struct sim_trace *trace, const struct sim_params *params,
			 const void *opts)
{
	const struct sim_array arrays[] = {
		SIM_ARRAY(struct opt, heap_page, params->cache_pages),
		SIM_ARRAY(struct opt, heap_key, params->cache_pages),
		SIM_ARRAY(struct opt, slot_of, trace->distinct),
	};
	struct opt *o;

	(void)opts; /* no options */
	if (!trace->next_use)
		return NULL;
	o = SIM_STATE_ALLOC(struct opt, arrays);
	if (!o)
		return NULL;
	o->next_use = trace->next_use;
	o->capacity = params->cache_pages;
	for (size_t i = 0; i < trace->distinct; i++)
		o->slot_of[i] = OPT_NOT_RESIDENT;
	return o;
}

static inline void opt_place(struct opt *o, size_t slot, uint32_t page, uint32_t key)
{
	o->heap_page[slot] = page;
	o->heap_key[slot] = key;
	o->slot_of[page] = (uint32_t)slot;
}

static void opt_sift_up(struct opt *o, size_t slot)
{
	uint32_t page = o->heap_page[slot], key = o->heap_key[slot];

	while (slot > 0) {
		size_t parent = (slot - 1) / 2;

		if (o->heap_key[parent] >= key)
			break;
		opt_place(o, slot, o->heap_page[parent], o->heap_key[parent]);
		slot = parent;
	}
	opt_place(o, slot, page, key);
}

static void opt_sift_down(struct opt *o, size_t slot)
{
	uint32_t page = o->heap_page[slot], key = o->heap_key[slot];

	for (;;) {
		size_t child = 2 * slot + 1;

		if (child >= o->used)
			break;
		if (child + 1 < o->used && o->heap_key[child + 1] > o->heap_key[child])
			child++;
		if (o->heap_key[child] <= key)
			break;
		opt_place(o, slot, o->heap_page[child], o->heap_key[child]);
		slot = child;
	}
	opt_place(o, slot, page, key);
}

static bool opt_access(void *state, uint32_t page)
{
	struct opt *o = state;
	uint32_t key = o->next_use[o->now++];
	uint32_t slot = o->slot_of[page];

	if (slot != OPT_NOT_RESIDENT) {
		/* The new key is a later position than the old one. */
		o->heap_key[slot] = key;
		opt_sift_up(o, slot);
		return true;
	}
	if (o->used < o->capacity) {
		opt_place(o, o->used, page, key);
		opt_sift_up(o, o->used++);
		return false;
	}
	o->slot_of[o->heap_page[0]] = OPT_NOT_RESIDENT;
	opt_place(o, 0, page, key);
	opt_sift_down(o, 0);
	return false;
}

const struct sim_policy policy_opt = {
	.name = "opt",
	.summary = "Belady's MIN: evict the page used furthest in the future",
	.needs_future = true,
	.create = opt_create,
	.access = opt_access,
};
