#include "datafile.h"

#include "err.h"
#include "stamp.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CREATE_CHUNK_PAGES 256u

char *datafile_path(const char *dir, const char *name)
{
	size_t len = strlen(dir) + strlen(name) + 2;
	char *p = malloc(len);

	if (!p)
		die(EXIT_LAB_RUNTIME, "out of memory");
	snprintf(p, len, "%s/%s", dir, name);
	return p;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int fsync_parent(const char *path)
{
	char *copy = strdup(path);
	int fd, err = 0;

	if (!copy)
		return ENOMEM;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		err = errno;
	else if (fsync(fd) && errno != EINVAL)
		err = errno;
	if (fd >= 0)
		close(fd);
	free(copy);
	return err;
}

static void meta_line(char *buf, size_t len, uint64_t pages, uint64_t seed, uint64_t object)
{
	snprintf(buf, len, "labdata1 seed=%llu object=%llu pages=%llu\n",
		 (unsigned long long)seed, (unsigned long long)object,
		 (unsigned long long)pages);
}

static int write_meta(const char *path, uint64_t pages, uint64_t seed, uint64_t object)
{
	char line[128], *meta = malloc(strlen(path) + 8), *tmp = malloc(strlen(path) + 40);
	int fd, err = 0;

	if (!meta || !tmp) {
		err = ENOMEM;
		goto out;
	}
	sprintf(meta, "%s.meta", path);
	sprintf(tmp, "%s.meta.tmp.%ld", path, (long)getpid());
	meta_line(line, sizeof(line), pages, seed, object);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		err = errno;
		goto out;
	}
	err = write_all(fd, line, strlen(line));
	if (!err && fsync(fd))
		err = errno;
	if (close(fd) && !err)
		err = errno;
	if (!err && rename(tmp, meta))
		err = errno;
	if (err)
		unlink(tmp);
out:
	free(meta);
	free(tmp);
	return err;
}

int datafile_create(const char *path, uint64_t pages, uint64_t seed, uint64_t object)
{
	char *tmp = datafile_tmp_path(path);
	unsigned char *chunk = malloc((size_t)CREATE_CHUNK_PAGES * LAB_PAGE_SIZE);
	int fd = -1, err = 0;

	if (!chunk) {
		err = ENOMEM;
		goto out;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		err = errno;
		goto out;
	}
	for (uint64_t page = 0; page < pages && !err;) {
		uint64_t n = pages - page;

		if (n > CREATE_CHUNK_PAGES)
			n = CREATE_CHUNK_PAGES;
		for (uint64_t i = 0; i < n; i++)
			stamp_fill(chunk + i * LAB_PAGE_SIZE, stamp_key(seed, object, page + i, 0));
		err = write_all(fd, chunk, (size_t)n * LAB_PAGE_SIZE);
		page += n;
	}
	if (!err && fsync(fd))
		err = errno;
	if (close(fd) && !err)
		err = errno;
	fd = -1;
	if (!err)
		err = datafile_commit(tmp, path, pages, seed, object);
	if (err)
		unlink(tmp);
out:
	free(tmp);
	free(chunk);
	return err;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

int datafile_remove_tree(const char *path)
{
	if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) && errno != ENOENT)
		return errno ? errno : EIO;
	return 0;
}

char *datafile_tmp_path(const char *path)
{
	size_t len = strlen(path) + 32;
	char *tmp = malloc(len);

	if (!tmp)
		die(EXIT_LAB_RUNTIME, "out of memory");
	snprintf(tmp, len, "%s.tmp.%ld", path, (long)getpid());
	return tmp;
}

int datafile_commit(const char *tmp, const char *path, uint64_t pages, uint64_t seed,
		    uint64_t object)
{
	/* Drop the old record first: a crash leaves no stale match. */
	char *meta = malloc(strlen(path) + 8);
	int err = 0;

	if (!meta)
		return ENOMEM;
	sprintf(meta, "%s.meta", path);
	if (unlink(meta) && errno != ENOENT)
		err = errno;
	free(meta);
	if (!err && rename(tmp, path))
		err = errno;
	if (!err)
		err = write_meta(path, pages, seed, object);
	if (!err)
		err = fsync_parent(path);
	return err;
}

void datafile_write_record(const char *record, const char *line)
{
	FILE *f = fopen(record, "w");

	if (!f || fputs(line, f) < 0 || fclose(f))
		die(EXIT_LAB_RUNTIME, "cannot write %s", record);
}

void datafile_check_record(const char *record, const char *what, const char *want,
			   size_t line_max)
{
	char got[256] = "";
	FILE *f = fopen(record, "r");

	if (!f)
		die(EXIT_LAB_RUNTIME, "cannot open %s: %s (run --phase setup first)", record,
		    strerror(errno));
	if (line_max > sizeof(got))
		line_max = sizeof(got);
	if (!fgets(got, (int)line_max, f))
		got[0] = 0;
	fclose(f);
	if (strcmp(want, got)) {
		got[strcspn(got, "\n")] = 0;
		die(EXIT_LAB_RUNTIME,
		    "%s was set up as '%s' but this run needs '%.*s' (run --phase setup with the same options)",
		    what, got, (int)strcspn(want, "\n"), want);
	}
}

static void check_meta(const char *path, uint64_t pages, uint64_t seed, uint64_t object)
{
	char want[128], *meta = malloc(strlen(path) + 8);

	if (!meta)
		die(EXIT_LAB_RUNTIME, "out of memory");
	sprintf(meta, "%s.meta", path);
	meta_line(want, sizeof(want), pages, seed, object);
	datafile_check_record(meta, path, want, sizeof(want));
	free(meta);
}

int datafile_open(const char *path, uint64_t pages, uint64_t seed, uint64_t object, int flags)
{
	struct stat st;
	int fd;

	check_meta(path, pages, seed, object);
	fd = open(path, flags);

	if (fd < 0)
		die(EXIT_LAB_RUNTIME, "cannot open %s: %s (run --phase setup first)",
		    path, strerror(errno));
	if (fstat(fd, &st))
		die(EXIT_LAB_RUNTIME, "cannot stat %s: %s", path, strerror(errno));
	if ((uint64_t)st.st_size != pages * LAB_PAGE_SIZE)
		die(EXIT_LAB_RUNTIME,
		    "%s holds %lld bytes, expected %llu (run --phase setup with the same options)",
		    path, (long long)st.st_size, (unsigned long long)(pages * LAB_PAGE_SIZE));
	return fd;
}

int drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	int err = 0;

	if (fd < 0)
		err = errno;
	else if (write(fd, "3\n", 2) != 2)
		err = errno;
	if (fd >= 0)
		close(fd);
	if (err == EACCES || err == EPERM || err == EROFS || err == ENOENT)
		return 0;
	return err;
}

int datafile_uncache(int fd, int drop)
{
	int err;

	if (fsync(fd))
		return errno;
	err = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (err || !drop)
		return err;
	return drop_caches();
}
