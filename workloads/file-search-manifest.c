/*
 * file-search-manifest: what the host's ripgrep finds in a source tree, as
 * the manifest file-search holds the guest's ripgrep to (lib/sources.h):
 *
 *   file-search-manifest [--rg PROGRAM] TREE > manifest
 *
 * Every regular file under TREE (symbolic links are left out, as ripgrep
 * leaves them) with its size and, per pattern, the matches ripgrep counts
 * in it; paths relative to TREE, in bytewise order. A path holding a tab or
 * a newline is refused. images/build-sources.sh runs it.
 *
 * Exit: 0 ok, 1 an error (one line on stderr), 2 bad usage.
 */
#define _XOPEN_SOURCE 700
#include "rgcount.h"
#include "sources.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tree {
	struct source_file *files;
	size_t n, cap;
	size_t toplen;
	unsigned pattern;
};

static struct tree tree; /* nftw's callback has no context */

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	struct source_file *f;

	(void)ftw;
	if (type != FTW_F)
		return 0;
	if (strpbrk(path + tree.toplen, "\t\n")) {
		fprintf(stderr, "file-search-manifest: %s: a tab or newline in the path\n", path);
		return 1;
	}
	if (tree.n == tree.cap) {
		size_t c = tree.cap ? 2 * tree.cap : 4096;
		struct source_file *p = realloc(tree.files, c * sizeof(*p));

		if (!p)
			return 1;
		tree.files = p;
		tree.cap = c;
	}
	f = &tree.files[tree.n++];
	memset(f, 0, sizeof(*f));
	f->size = (uint64_t)st->st_size;
	f->path = strdup(path + tree.toplen + 1);
	return f->path ? 0 : 1;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct source_file *)a)->path, ((const struct source_file *)b)->path);
}

static int counted(void *ctx, const char *path, uint64_t count)
{
	struct sources s = { .files = tree.files, .n = tree.n };
	struct source_file *f = (struct source_file *)sources_find(&s, path);

	(void)ctx;
	if (!f) {
		fprintf(stderr, "file-search-manifest: rg found %s, which is no regular file\n", path);
		return -1;
	}
	f->count[tree.pattern] = count;
	return 0;
}

int main(int argc, char **argv)
{
	const char *rg = "/usr/bin/rg";
	char *top;
	int i = 1;

	if (argc == 4 && !strcmp(argv[1], "--rg")) {
		rg = argv[2];
		i = 3;
	}
	if (argc != i + 1 || argv[i][0] == '-') {
		fprintf(stderr, "usage: file-search-manifest [--rg PROGRAM] TREE\n");
		return 2;
	}
	top = strdup(argv[i]);
	if (!top)
		return 1;
	tree.toplen = strlen(top);
	while (tree.toplen > 1 && top[tree.toplen - 1] == '/')
		top[--tree.toplen] = 0;
	if (nftw(top, visit, 64, FTW_PHYS)) {
		fprintf(stderr, "file-search-manifest: cannot walk %s\n", top);
		return 1;
	}
	qsort(tree.files, tree.n, sizeof(*tree.files), by_path);
	for (tree.pattern = 0; tree.pattern < SOURCES_PATTERNS; tree.pattern++) {
		int rc = rg_counts(rg, sources_patterns[tree.pattern], top, counted, NULL);

		if (rc != 0 && rc != 1) {
			if (rc > 1)
				fprintf(stderr, "file-search-manifest: rg exited with status %d\n", rc);
			return 1;
		}
	}
	printf("labsources1 patterns=%d\n", SOURCES_PATTERNS);
	for (size_t f = 0; f < tree.n; f++) {
		printf("%llu", (unsigned long long)tree.files[f].size);
		for (unsigned p = 0; p < SOURCES_PATTERNS; p++)
			printf("\t%llu", (unsigned long long)tree.files[f].count[p]);
		printf("\t%s\n", tree.files[f].path);
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "file-search-manifest: cannot write the manifest\n");
		return 1;
	}
	return 0;
}
