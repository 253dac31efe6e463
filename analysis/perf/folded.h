/* Folded stacks, the format of FlameGraph's stackcollapse-perf.pl that
 * flamegraph.pl, speedscope and inferno read: one line per distinct
 * stack, its frames outermost first joined by ';' and the number of
 * samples after a space:
 *
 *   kswapd0;ret_from_fork;kthread;kswapd;balance_pgdat;shrink_node;... 412
 *
 * The first frame is the thread's name (spaces and ';' turned into '_'),
 * "swapper" for the idle task; a sample with no kernel frames ends in
 * "[user]". */
#ifndef FOLDED_H
#define FOLDED_H

#include <stdio.h>

#include "script.h"
#include "strmap.h"

/* A folded stack split into its frames, outermost (the thread) first. */
struct stack {
	char *buf;
	char **frames;
	size_t n;
};

/* The folded key of a sample, malloc'ed; NULL when out of memory. */
char *folded_key(const struct perf_sample *s);

/* Splits key into st (free with stack_free).  Returns 0, or -1 when out
 * of memory. */
int stack_split(struct stack *st, const char *key);
void stack_free(struct stack *st);

/* The name a frame is matched by: without the compiler's suffix
 * (".constprop.0", ".isra.0", ".cold"), copied into buf. */
const char *frame_base(const char *frame, char *buf, size_t len);

/* Reads "STACK COUNT" lines into stacks (counts of equal stacks add up).
 * Returns 0, or -1 with a message (naming the line) in err. */
int folded_read(FILE *in, struct strmap *stacks, char *err, size_t errlen);

/* Writes stacks sorted by stack, as stackcollapse-perf.pl does.  Returns
 * 0, or -1 when out of memory. */
int folded_write(FILE *out, const struct strmap *stacks);

#endif
