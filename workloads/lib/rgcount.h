/* Ripgrep's per-file match counts of one pattern over a directory. */
#ifndef LAB_RGCOUNT_H
#define LAB_RGCOUNT_H

#include <stdint.h>

/* Called for every file with matches: its path relative to dir, and the
 * count; returns 0 to go on, or nonzero to stop reading (the value is
 * returned). */
typedef int (*rg_count_fn)(void *ctx, const char *path, uint64_t count);

/*
 * Run rg (the program) with sources_rg_flags, the pattern and dir, and hand
 * each "PATH:COUNT" line of its output to fn. Returns rg's exit status (0:
 * matches, 1: none, 2: an error), fn's nonzero value, or -1 after one
 * error line (rg could not run, or printed a line that is not PATH:COUNT
 * under dir).
 */
int rg_counts(const char *rg, const char *pattern, const char *dir, rg_count_fn fn, void *ctx);

#endif
