/* The interface every replacement model implements.
 *
 * A model sees pages as dense ids in [0, trace->distinct) and is driven one
 * reference at a time; access() returns true on a hit.  Models that need the
 * future (OPT) read trace->next_use, which the caller fills in when
 * needs_future is set.  create() returns NULL only when out of memory. */
#ifndef SIM_POLICY_H
#define SIM_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace.h"

struct sim_params {
	size_t cache_pages;
	uint64_t seed;
	/* CLOCK-Pro lower bound for the adaptive cold target, in pages;
	 * 0 means the default (see policy_clockpro.c). */
	size_t clockpro_min_cold;
	/* CLOCK-Pro inserts a new page as the 2006 and 6.1 kernel ports do:
	 * cold, not in test, referenced by the access that loaded it. */
	bool clockpro_port_insert;
};

struct sim_policy {
	const char *name;
	const char *summary;
	bool needs_future;
	void *(*create)(const struct sim_trace *trace, const struct sim_params *params);
	bool (*access)(void *state, uint32_t page);
	void (*destroy)(void *state);
};

extern const struct sim_policy policy_opt;
extern const struct sim_policy policy_lru;
extern const struct sim_policy policy_fifo;
extern const struct sim_policy policy_clock;
extern const struct sim_policy policy_random;
extern const struct sim_policy policy_lru2q;
extern const struct sim_policy policy_clockpro;
extern const struct sim_policy policy_car;
extern const struct sim_policy policy_cart;
extern const struct sim_policy policy_cart_r;

/* NULL-terminated, in the default output order. */
extern const struct sim_policy *const sim_policies[];

const struct sim_policy *sim_policy_find(const char *name);

#endif
