/*
 * Page reference strings (--emit-refs, CONTRACTS.md): "LABREFS1", u32 page
 * size, u32 flags (0), then one little-endian u64 page id per reference.
 * References are buffered in memory (up to REFS_BUFFER_BYTES) so the timed
 * phase does no I/O for them in ordinary runs; the file is written under a
 * temporary name and renamed into place by refs_commit().
 */
#ifndef LAB_REFS_H
#define LAB_REFS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define REFS_MAGIC "LABREFS1"
#define REFS_HEADER_BYTES 16
#define REFS_BUFFER_BYTES ((size_t)64 << 20)
#define REFS_PAGE_BITS 40

#define REFS_ID(object, page) (((uint64_t)(object) << REFS_PAGE_BITS) | (uint64_t)(page))

struct refs {
	FILE *file;
	char *path;
	char *tmp_path;
	uint64_t *buf;
	size_t used;
	size_t cap;
	uint64_t count;
	int failed;
};

/* An inactive writer: refs_add() does nothing. */
void refs_none(struct refs *r);
/* Create path's temporary file and write the header; 0 or -1 (errno set). */
int refs_open(struct refs *r, const char *path, uint32_t page_size);
/* Write out what is buffered (called when the buffer is full). */
void refs_spill(struct refs *r);

static inline void refs_add(struct refs *r, uint64_t id)
{
	if (!r->buf)
		return;
	if (r->used == r->cap)
		refs_spill(r);
	r->buf[r->used++] = id;
	r->count++;
}

static inline int refs_active(const struct refs *r)
{
	return r->buf != NULL;
}

/* Flush, close and rename into place; 0 or -1 (errno set). */
int refs_commit(struct refs *r);
/* Remove the temporary file; used on every failure path. */
void refs_abort(struct refs *r);

struct result;

/*
 * A program's --emit-refs FILE: refs_open with 4 KiB pages, or exit 2 with
 * "cannot create --emit-refs file FILE: why"; at the end, for an active
 * writer, RESULT's "refs" (the count) and refs_commit, or exit 1 with
 * "cannot write --emit-refs file FILE: why" (an inactive one: nothing).
 */
void refs_emit_open(struct refs *r, const char *path);
void refs_emit_commit(struct refs *r, const char *path, struct result *res);

#endif
