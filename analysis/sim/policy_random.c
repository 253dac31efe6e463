/* Random: evict a uniformly chosen resident page (seeded, reproducible).
 * Same idea as the 2006 series' toy policy (patch 34), minus its physical
 * frame scan: here every frame holds a page, so one draw always hits. */

#include "policy.h"
#include "prng.h"

#define RANDOM_ABSENT UINT32_MAX

struct random_policy {
	uint32_t *frames;
	uint32_t *frame_of; /* page -> frame, or RANDOM_ABSENT */
	size_t capacity;
	size_t used;
	struct prng rng;
};

static void *random_create(const struct sim_trace *trace, const struct sim_params *params,
			 const void *opts)
{
	const struct sim_array arrays[] = {
		SIM_ARRAY(struct random_policy, frames, params->cache_pages),
		SIM_ARRAY(struct random_policy, frame_of, trace->distinct),
	};
	struct random_policy *r = SIM_STATE_ALLOC(struct random_policy, arrays);

	(void)opts; /* no options */
	if (!r)
		return NULL;
	r->capacity = params->cache_pages;
	for (size_t i = 0; i < trace->distinct; i++)
		r->frame_of[i] = RANDOM_ABSENT;
	prng_seed(&r->rng, params->seed);
	return r;
}

static bool random_access(void *state, uint32_t page)
{
	struct random_policy *r = state;
	size_t frame;

	if (r->frame_of[page] != RANDOM_ABSENT)
		return true;
	if (r->used < r->capacity) {
		frame = r->used++;
	} else {
		frame = (size_t)prng_below(&r->rng, r->capacity);
		r->frame_of[r->frames[frame]] = RANDOM_ABSENT;
	}
	r->frames[frame] = page;
	r->frame_of[page] = (uint32_t)frame;
	return false;
}

SIM_POLICY(random, "random",
	   "evict a random resident page (seeded by --seed)",
	   random_create, random_access);
