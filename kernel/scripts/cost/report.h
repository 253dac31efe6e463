/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The comparison of two native paths and the Markdown report: a table row
 * per function and, for each function whose paths differ, the multiset
 * difference of their normalised instructions.
 *
 * added        the instructions that do work (work_shape() in normalise.h)
 *              that lab's path has more often than the reference's: the
 *              positive part of the difference of the two multisets;
 * net          lab's instructions minus the reference's, static-branch
 *              sites (or key tests) left out: reported, not judged, since
 *              block layout (a tail duplicated or merged) moves it both
 *              ways;
 * sites added  lab's static branches minus the reference's;
 * new calls    callees lab calls (or tail-calls) more often than the
 *              reference does: an out-of-line call on the native path
 *              whatever the instruction count says.
 * A function passes when added <= the tolerance, there is no new call, and
 * the lab's extra sites are jump labels (not key tests).
 */
#ifndef KERNEL_COST_REPORT_H
#define KERNEL_COST_REPORT_H

#include <stdio.h>

#include "native_path.h"

struct cost_row {
	const char *label;
	struct native_path path[2];	/* [0] reference, [1] lab */
	int jump_labels;		/* the lab kernel has __jump_table */
};

struct cost_verdict {
	long added;
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
