/* The kernel beside Belady's OPT and the policy models on each run's own
 * reference string (lab.sh bound, compare and report).
 *
 * lab.sh bound replays every run's refs.bin in pagesim at the run's size
 * (mem_available_pages) into SIM_DIR/<run_id>.csv; this reads those files
 * and the runs' result.json and aggregates: one row per run, and a
 * summary per experiment (experiment.h) with OPT, the policy's own model
 * and the kernel's counts, means over the reps. */
#ifndef BOUND_H
#define BOUND_H

#include <stdio.h>

#include "compare.h"
#include "runs.h"
#include "table.h"

/* BOUND_SWEEP: lab.sh sweep's row per experiment, alone. */
enum bound_tables { BOUND_RUNS = 1, BOUND_SUMMARY = 2, BOUND_SWEEP = 4 };

struct bound_options {
	const char *sim_dir;
	const char *models;	/* comma-separated; NULL: every model in the first file */
	int tables;		/* BOUND_RUNS | BOUND_SUMMARY, or BOUND_SWEEP */
	const char *sweep_size;	/* BOUND_SWEEP: the size column's value */
};

/* The pagesim model that stands for a kernel policy (the registry's model
 * column, lab/registry/policies.tsv), or NULL (MGLRU has none). */
const char *bound_policy_model(const struct run *r);

/* Writes the tables.  Runs without a simulation file or without
 * mem_available_pages are left out with a note.  Returns 0, -1 after
 * one error line, or 2 after one line when no run has a simulation. */
int bound_write(FILE *out, enum table_format format, const struct run_set *runs,
		const struct grouping *g, const struct bound_options *o);

#endif
