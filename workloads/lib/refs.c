#include "refs.h"

#include "err.h"
#include "result.h"
#include "stamp.h"

#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The open writer, so an exit through die() removes its temporary file. */
static struct refs *open_writer;

static void remove_unfinished(void)
{
	if (open_writer && open_writer->tmp_path)
		unlink(open_writer->tmp_path);
}

void refs_none(struct refs *r)
{
	if (open_writer == r)
		open_writer = NULL;
	memset(r, 0, sizeof(*r));
}

int refs_open(struct refs *r, const char *path, uint32_t page_size)
{
	unsigned char header[REFS_HEADER_BYTES];
	uint32_t le;
	size_t len = strlen(path) + 32;

	refs_none(r);
	r->path = strdup(path);
	r->tmp_path = malloc(len);
	r->cap = REFS_BUFFER_BYTES / sizeof(uint64_t);
	r->buf = malloc(r->cap * sizeof(uint64_t));
	if (!r->path || !r->tmp_path || !r->buf) {
		refs_abort(r);
		errno = ENOMEM;
		return -1;
	}
	snprintf(r->tmp_path, len, "%s.tmp.%ld", path, (long)getpid());
	r->file = fopen(r->tmp_path, "wb");
	if (!r->file) {
		int saved = errno;

		free(r->tmp_path);
		r->tmp_path = NULL;
		refs_abort(r);
		errno = saved;
		return -1;
	}
	if (!open_writer) {
		static int registered;

		if (!registered && atexit(remove_unfinished) == 0)
			registered = 1;
	}
	open_writer = r;
	memcpy(header, REFS_MAGIC, 8);
	le = htole32(page_size);
	memcpy(header + 8, &le, 4);
	le = htole32(0);
	memcpy(header + 12, &le, 4);
	if (fwrite(header, sizeof(header), 1, r->file) != 1)
		r->failed = errno ? errno : EIO;
	return 0;
}

void refs_spill(struct refs *r)
{
	for (size_t i = 0; i < r->used; i++)
		r->buf[i] = htole64(r->buf[i]);
	if (!r->failed && r->used &&
	    fwrite(r->buf, sizeof(uint64_t), r->used, r->file) != r->used)
		r->failed = errno ? errno : EIO;
	r->used = 0;
}

int refs_commit(struct refs *r)
{
	int err = 0;

	if (!r->buf)
		return 0;
	refs_spill(r);
	if (r->failed)
		err = r->failed;
	else if (fflush(r->file) || fsync(fileno(r->file)))
		err = errno;
	if (fclose(r->file) && !err)
		err = errno;
	r->file = NULL;
	if (!err && rename(r->tmp_path, r->path))
		err = errno;
	if (err) {
		refs_abort(r);
		errno = err;
		return -1;
	}
	free(r->tmp_path);
	r->tmp_path = NULL;
	refs_abort(r);
	return 0;
}

void refs_abort(struct refs *r)
{
	if (r->file)
		fclose(r->file);
	if (r->tmp_path)
		unlink(r->tmp_path);
	free(r->tmp_path);
	free(r->path);
	free(r->buf);
	refs_none(r);
}

void refs_emit_open(struct refs *r, const char *path)
{
	if (refs_open(r, path, LAB_PAGE_SIZE))
		die(EXIT_LAB_USAGE, "cannot create --emit-refs file %s: %s", path, strerror(errno));
}

void refs_emit_commit(struct refs *r, const char *path, struct result *res)
{
	if (!refs_active(r))
		return;
	result_u64(res, "refs", r->count);
	if (refs_commit(r))
		die(EXIT_LAB_RUNTIME, "cannot write --emit-refs file %s: %s", path, strerror(errno));
}
