/* A profile's totals, from its folded stacks: samples per scope and part
 * (classify.h) and per kernel symbol, self (the sample's innermost frame)
 * and children (anywhere in its stack, once per sample), as
 * perf report --children counts them. */
#ifndef PROFILE_H
#define PROFILE_H

#include <stdint.h>

#include "classify.h"
#include "strmap.h"

struct profile {
	uint64_t samples, idle;
	uint64_t reclaim, kswapd, fault;
	uint64_t part[NPARTS];		/* busy samples by part */
	uint64_t reclaim_part[NPARTS];	/* reclaim samples by part */
	struct strmap self, children;
};

/* Returns 0, or -1 when out of memory (p is freed then). */
int profile_build(struct profile *p, const struct strmap *stacks);
void profile_free(struct profile *p);

/* Adds to out the stacks of in that hold the kernel symbol sym (for a
 * flame graph of one symbol's callers and callees).  Returns 0 or -1 when
 * out of memory. */
int stacks_with_symbol(struct strmap *out, const struct strmap *in, const char *sym);

#endif
