/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The native path of a function: the instructions reachable from its entry
 * with tracing off and no non-native policy running, over a control-flow
 * graph of direct jumps and fall-through (switch tables followed, calls
 * returning, jumps out of the function taken as tail calls).
 *
 * A static branch (a jump-label site: a jmp or a NOP listed in
 * __jump_table) is walked according to its key:
 *   - a tracepoint's key (__tracepoint_*), off with tracing off, and a key
 *     the reference kernel does not have (the series' own, off while a
 *     native policy runs): the way the code is built, their initial state
 *     (a NOP falls through, a jmp jumps);
 *   - any other key (the reference kernel's, e.g. lru_gen_caps, which
 *     selects MGLRU): both ways, so that the path is lru's and mglru's.
 * Without jump labels (CONFIG_JUMP_LABEL off, no __jump_table) a static
 * key is a plain atomic_t and static_branch_unlikely() is a load, a test
 * and a conditional jump: a "key test", recognised when a load of such a
 * key (RIP-relative; a tracepoint's key at offset 8, or a data symbol the
 * reference kernel does not have) feeds a test and a jg/jle, the test of
 * static_key_count() > 0.  It is walked like an off site, and its
 * instructions are counted apart.
 *
 * Along the path: the same walk keeps the control-flow edges, so that the
 * instructions that do work (work_shape() in normalise.h) can be counted
 * on a way through the function, not only over all of it: the most and
 * the fewest on any way from the entry to an exit (a return, a tail call,
 * a trap), each loop's back edge cut so that a loop counts once.  Tail
 * duplication and merged tails, which move the multiset both ways, leave
 * these alone; work added on every way through the function moves both.
 */
#ifndef KERNEL_COST_NATIVE_PATH_H
#define KERNEL_COST_NATIVE_PATH_H

#include <stddef.h>

#include "disasm.h"
#include "elf_image.h"

struct function_unit {
	const char *name;		/* what the report calls it */
	uint64_t entry;
	struct addr_range ranges[4];	/* the body and its .cold parts */
	size_t nranges;
};

struct native_path {
	char **insns;		/* normalised texts, static-branch sites apart */
	size_t n;
	char **calls;		/* callees of calls and tail calls */
	size_t ncalls;
	char **site_texts;	/* the sites' own instructions, normalised */
	size_t site_insns;	/* how many: the sites' instructions */
	size_t sites;		/* static branches (or key tests) passed */
	size_t longest_work;	/* work instructions on the longest way through */
	size_t shortest_work;	/* ... and on the shortest */
	char **longest;		/* the longest way's work instructions */
	char **shortest;	/* ... and the shortest's (normalised texts) */
};

/* Per-instruction roles of key tests, for an image without jump labels. */
struct key_tests {
	unsigned char *role;	/* one per instruction of the list */
	size_t n;
};

/*
 * Find IMG's key tests among LIST's instructions; REF is the reference
 * kernel (IMG itself for the reference).  Nothing to find when IMG has
 * jump labels.
 */
void key_tests_find(const struct elf_image *img, const struct elf_image *ref,
		    const struct insn_list *list, struct key_tests *out);
void key_tests_free(struct key_tests *k);

/* Walk U's native path in IMG; 0, or -1 when U's entry is not in LIST. */
int native_path_walk(const struct elf_image *img, const struct elf_image *ref,
		     const struct insn_list *list, const struct key_tests *kt,
		     const struct function_unit *u, struct native_path *out);
void native_path_free(struct native_path *p);

#endif
