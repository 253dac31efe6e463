/* The pages a workload touched most, from its reference string (LABREFS1,
 * lab.sh run --refs: object << 40 | page, one id a page touched), and what
 * the page cache did with them: the kernel's page-cache protection of the
 * workload's hot set (trace-page-cache --refs).
 *
 * The hot set is the top percent of the distinct pages by references, ties
 * broken by id, so it depends on the workload alone, not on the policy. A
 * hot page's insertions beyond its first are rereads: the page left the
 * cache though it was among the most used. */
#ifndef HOT_PAGES_H
#define HOT_PAGES_H

#include <stddef.h>
#include <stdint.h>

#define HOT_OBJECT_SHIFT 40

struct hot_page {
	uint64_t id;   /* object << 40 | page */
	uint64_t refs; /* references to it */
};

struct hot_pages {
	struct hot_page *pages; /* the hot set, most referenced first */
	size_t n;
	size_t distinct;        /* distinct pages referenced */
	uint64_t refs;          /* references to the hot set */
};

/* Read path's reference string and keep the top percent (0 < percent <=
 * 100, at least one page) of its distinct pages. Returns 0, or -1 with one
 * message (without program name or newline) in err. */
int hot_pages_load(const char *path, double percent, struct hot_pages *h, char *err,
		   size_t err_len);
void hot_pages_free(struct hot_pages *h);

/* "OBJ:INO OBJ:INO ..." (a workload's object_inodes) into objs and inos,
 * at most cap pairs. The count, or -1 when malformed. */
int hot_parse_inodes(const char *spec, uint64_t *objs, unsigned long long *inos, size_t cap);

#endif
