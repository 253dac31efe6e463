/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The comparison of two native paths and the Markdown report: a table row
 * per function and, for each function whose paths differ, the multiset
 * difference of their normalised instructions.
 *
 * added        the instructions that do work (work_shape() in normalise.h)
 *              that lab's path has more often than the reference's: the
 *              positive part of the difference of the two multisets, over
 *              everything reachable.  Reported, not judged: a tail the
 *              compiler duplicates counts twice, one it merges once, and
 *              either happens in one kernel and not the other as soon as
 *              a hook's out-of-line block exists, with no instruction more
 *              on any way through the function;
 * net          lab's instructions minus the reference's, static-branch
 *              sites (or key tests) left out: reported, not judged;
 * sites added  lab's static branches minus the reference's;
 * longest, shortest
 *              the work on the longest and on the shortest way from the
 *              entry to an exit (native_path.h), in each kernel;
 * new calls    callees lab calls (or tail-calls) more often than the
 *              reference does: an out-of-line call on the native path
 *              whatever the instruction count says.
 * A function passes when neither its longest nor its shortest way carries
 * more work than the reference's plus the tolerance, there is no new call,
 * and the lab's extra sites are jump labels (not key tests); a cold one
 * (a sysfs handler, say) passes whatever it does, its verdict says why.
 */
#ifndef KERNEL_COST_REPORT_H
#define KERNEL_COST_REPORT_H

#include <stdio.h>

#include "native_path.h"

struct cost_row {
	const char *label;
	struct native_path path[2];	/* [0] reference, [1] lab */
	int jump_labels;		/* the lab kernel has __jump_table */
	int cold;			/* off every hot path: reported, not judged */
};

struct cost_verdict {
	long added;
	long longest_added, shortest_added;	/* work added on those ways */
	long net;
	long sites_added;
	long tolerance;
	size_t new_calls;
	int pass;
};

struct cost_verdict cost_judge(const struct cost_row *row, long tolerance);

void report_table_head(FILE *out);
void report_table_row(FILE *out, const struct cost_row *row,
		      const struct cost_verdict *v);
/* The instructions that differ, when any; nothing when the paths match. */
void report_diff(FILE *out, const struct cost_row *row);

#endif
