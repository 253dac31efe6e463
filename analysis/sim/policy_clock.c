/* CLOCK (Corbato 1968, "second chance"): frames in a ring, one reference
 * bit per page; the hand clears set bits and evicts the first page whose bit
 * is clear.  A newly loaded page starts with its bit clear (the reference
 * that loaded it is not counted twice), as in the usual textbook model.
 *
 * FIFO is the same ring without the reference bit: hits change nothing and
 * the hand evicts the page that entered memory first.  Not a stack
 * algorithm, so it shows Belady's anomaly. */

#include "policy.h"

#define CLOCK_ABSENT 0
#define CLOCK_RESIDENT 1
#define CLOCK_REFERENCED 2

/* What tells CLOCK and FIFO apart (their settings, SIM_POLICY_VARIANT). */
struct clock_variant {
	bool second_chance; /* false: FIFO */
};

static const struct clock_variant clock_settings = { .second_chance = true };
static const struct clock_variant fifo_settings = { .second_chance = false };

struct clock {
	uint32_t *frames;
	uint8_t *state; /* per page: CLOCK_ABSENT or CLOCK_RESIDENT|CLOCK_REFERENCED */
	size_t capacity;
	size_t used;
	size_t hand;
	bool second_chance;
};

static void *clock_create(const struct sim_trace *trace, const struct sim_params *params,
			  const void *opts)
{
	const struct clock_variant *variant = opts;
	const struct sim_array arrays[] = {
		SIM_ARRAY(struct clock, frames, params->cache_pages),
		SIM_ARRAY(struct clock, state, trace->distinct),
	};
	struct clock *c = SIM_STATE_ALLOC(struct clock, arrays);

	if (c) {
		c->capacity = params->cache_pages;
		c->second_chance = variant->second_chance;
	}
	return c;
}

static bool clock_access(void *state, uint32_t page)
{
	struct clock *c = state;

	if (c->state[page]) {
		if (c->second_chance)
			c->state[page] = CLOCK_RESIDENT | CLOCK_REFERENCED;
		return true;
	}
	c->state[page] = CLOCK_RESIDENT;
	if (c->used < c->capacity) {
		c->frames[c->used++] = page;
		return false;
	}
	for (;;) {
		uint32_t victim = c->frames[c->hand];

		if (c->state[victim] & CLOCK_REFERENCED) {
			c->state[victim] = CLOCK_RESIDENT;
		} else {
			c->state[victim] = CLOCK_ABSENT;
			c->frames[c->hand] = page;
			if (++c->hand == c->capacity)
				c->hand = 0;
			return false;
		}
		if (++c->hand == c->capacity)
			c->hand = 0;
	}
}

SIM_POLICY_VARIANT(clock, "clock",
		   "CLOCK / second chance, one reference bit",
		   clock_create, clock_access, clock_settings);

SIM_POLICY_VARIANT(fifo, "fifo",
		   "first in, first out",
		   clock_create, clock_access, fifo_settings);
