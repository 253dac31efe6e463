/*
 * The source tree file-search reads, and what the host's ripgrep found in
 * it: a manifest, one line a file in bytewise path order,
 *
 *   labsources1 patterns=N
 *   SIZE<TAB>COUNT_1<TAB>...<TAB>COUNT_N<TAB>PATH
 *
 * COUNT_i being the matches of sources_patterns[i] in the file (ripgrep's
 * --count-matches, with sources_rg_flags), PATH relative to the tree's top.
 * file-search-manifest writes it on the host (images/build-sources.sh);
 * file-search copies a prefix of the files into the data disk and holds
 * the guest's ripgrep to those counts.
 */
#ifndef LAB_SOURCES_H
#define LAB_SOURCES_H

#include <stddef.h>
#include <stdint.h>

#define SOURCES_PATTERNS 3

/* The patterns, one a pass (pass p searches pattern p % SOURCES_PATTERNS). */
extern const char *const sources_patterns[SOURCES_PATTERNS];
/* ripgrep's flags for both sides: every file, no config, no ignore rules,
 * hidden files too, per-file match counts; NULL-terminated. */
extern const char *const sources_rg_flags[];

struct source_file {
	char *path;
	uint64_t size;
	uint64_t count[SOURCES_PATTERNS];
};

struct sources {
	struct source_file *files;
	size_t n, cap;
};

/* Read a manifest. 0, or -1 after one error line on stderr naming
 * path:line. */
int sources_read(struct sources *s, const char *path);
/* The file whose path is path, or NULL (the files are in path order). */
const struct source_file *sources_find(const struct sources *s, const char *path);
void sources_free(struct sources *s);

#endif
