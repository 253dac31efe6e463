#include "iotap.h"

#include "err.h"
#include "stamp.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define TAP_MAX_FDS 4096
#define TAP_MAX_FILES 65536

int __real_open(const char *path, int flags, ...);
int __real_open64(const char *path, int flags, ...);
int __real_close(int fd);
ssize_t __real_read(int fd, void *buf, size_t n);
ssize_t __real_write(int fd, const void *buf, size_t n);
ssize_t __real_pread(int fd, void *buf, size_t n, off_t off);
ssize_t __real_pread64(int fd, void *buf, size_t n, off_t off);
ssize_t __real_pwrite64(int fd, const void *buf, size_t n, off_t off);
void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__real_mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off);

struct tap_file {
	char *path;
	int64_t object; /* -1 until its first reference */
	unsigned long long ino;
};

static struct {
	pthread_mutex_t lock;
	char *prefix;
	size_t prefix_len;
	int readahead;
	struct refs *refs;
	/* fd -> index + 1 in files[] (0: not a database file) */
	_Atomic int fd_file[TAP_MAX_FDS];
	unsigned char fd_append[TAP_MAX_FDS];
	struct tap_file *files;
	size_t nfiles;
	int64_t objects;
} tap = { .lock = PTHREAD_MUTEX_INITIALIZER, .readahead = 1 };

void iotap_init(const char *dir, int readahead)
{
	size_t len = strlen(dir);

	tap.prefix = malloc(len + 2);
	tap.files = calloc(TAP_MAX_FILES, sizeof(*tap.files));
	if (!tap.prefix || !tap.files)
		die(EXIT_LAB_RUNTIME, "out of memory");
	memcpy(tap.prefix, dir, len);
	tap.prefix[len] = '/';
	tap.prefix[len + 1] = 0;
	tap.prefix_len = len + 1;
	tap.readahead = readahead;
}

void iotap_record(struct refs *refs)
{
	pthread_mutex_lock(&tap.lock);
	tap.refs = refs;
	pthread_mutex_unlock(&tap.lock);
}

/* The file entry of path, created on first sight; tap.lock held. */
static int file_index(const char *path)
{
	for (size_t i = 0; i < tap.nfiles; i++)
		if (!strcmp(tap.files[i].path, path))
			return (int)i;
	if (tap.nfiles == TAP_MAX_FILES)
		die(EXIT_LAB_RUNTIME, "the database opened more than %d files", TAP_MAX_FILES);
	tap.files[tap.nfiles].path = strdup(path);
	if (!tap.files[tap.nfiles].path)
		die(EXIT_LAB_RUNTIME, "out of memory");
	tap.files[tap.nfiles].object = -1;
	return (int)tap.nfiles++;
}

static void opened(const char *path, int flags, int fd)
{
	struct stat st;
	int err;

	if (fd < 0 || !tap.prefix || strncmp(path, tap.prefix, tap.prefix_len))
		return;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		return;
	if (fd >= TAP_MAX_FDS)
		die(EXIT_LAB_RUNTIME, "database file %s got fd %d, above the tap's %d", path, fd,
		    TAP_MAX_FDS);
	if (!tap.readahead && (err = posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM)))
		die(EXIT_LAB_RUNTIME, "cannot switch readahead off on %s: %s", path,
		    strerror(err));
	pthread_mutex_lock(&tap.lock);
	tap.fd_append[fd] = (flags & O_APPEND) != 0;
	atomic_store(&tap.fd_file[fd], file_index(path) + 1);
	pthread_mutex_unlock(&tap.lock);
}

/* open()'s third argument, present with O_CREAT or O_TMPFILE. */
#define OPEN_MODE(flags, mode)                                                     \
	do {                                                                       \
		va_list ap;                                                        \
		va_start(ap, flags);                                               \
		mode = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(ap, int) : 0; \
		va_end(ap);                                                        \
	} while (0)

int __wrap_open(const char *path, int flags, ...)
{
	int mode, fd;

	OPEN_MODE(flags, mode);
	fd = __real_open(path, flags, mode);
	opened(path, flags, fd);
	return fd;
}

int __wrap_open64(const char *path, int flags, ...)
{
	int mode, fd;

	OPEN_MODE(flags, mode);
	fd = __real_open64(path, flags, mode);
	opened(path, flags, fd);
	return fd;
}

int __wrap_close(int fd)
{
	if (fd >= 0 && fd < TAP_MAX_FDS)
		atomic_store(&tap.fd_file[fd], 0);
	return __real_close(fd);
}

static int tracked(int fd)
{
	return fd >= 0 && fd < TAP_MAX_FDS && tap.refs && atomic_load(&tap.fd_file[fd]);
}

/* One reference per page of [off, off + n) of fd's file. */
static void reference(int fd, off_t off, ssize_t n)
{
	struct tap_file *f;
	int idx;

	if (n <= 0)
		return;
	pthread_mutex_lock(&tap.lock);
	idx = atomic_load(&tap.fd_file[fd]);
	if (tap.refs && idx) {
		f = &tap.files[idx - 1];
		if (f->object < 0) {
			struct stat st;

			f->object = tap.objects++;
			f->ino = fstat(fd, &st) ? 0 : (unsigned long long)st.st_ino;
		}
		for (uint64_t p = (uint64_t)off / LAB_PAGE_SIZE;
		     p <= ((uint64_t)off + (uint64_t)n - 1) / LAB_PAGE_SIZE; p++)
			refs_add(tap.refs, REFS_ID(f->object, p));
	}
	pthread_mutex_unlock(&tap.lock);
}

/* Where read() or write() on fd will transfer. */
static off_t position(int fd, int writing)
{
	struct stat st;

	if (writing && tap.fd_append[fd])
		return fstat(fd, &st) ? 0 : st.st_size;
	return lseek(fd, 0, SEEK_CUR);
}

ssize_t __wrap_read(int fd, void *buf, size_t n)
{
	off_t off;
	ssize_t got;

	if (!tracked(fd))
		return __real_read(fd, buf, n);
	off = position(fd, 0);
	got = __real_read(fd, buf, n);
	reference(fd, off, got);
	return got;
}

ssize_t __wrap_write(int fd, const void *buf, size_t n)
{
	off_t off;
	ssize_t put;

	if (!tracked(fd))
		return __real_write(fd, buf, n);
	off = position(fd, 1);
	put = __real_write(fd, buf, n);
	reference(fd, off, put);
	return put;
}

ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t off)
{
	ssize_t got = __real_pread(fd, buf, n, off);

	if (tracked(fd))
		reference(fd, off, got);
	return got;
}

ssize_t __wrap_pread64(int fd, void *buf, size_t n, off_t off)
{
	ssize_t got = __real_pread64(fd, buf, n, off);

	if (tracked(fd))
		reference(fd, off, got);
	return got;
}

ssize_t __wrap_pwrite64(int fd, const void *buf, size_t n, off_t off)
{
	ssize_t put = __real_pwrite64(fd, buf, n, off);

	if (tracked(fd))
		reference(fd, off, put);
	return put;
}

static void *mapped(void *p, size_t len, int fd)
{
	int saved = errno;

	if (p != MAP_FAILED && !tap.readahead && fd >= 0 && fd < TAP_MAX_FDS &&
	    atomic_load(&tap.fd_file[fd]) && madvise(p, len, MADV_RANDOM))
		die(EXIT_LAB_RUNTIME, "cannot switch readahead off on a database mapping: %s",
		    strerror(errno));
	errno = saved;
	return p;
}

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return mapped(__real_mmap(addr, len, prot, flags, fd, off), len, fd);
}

void *__wrap_mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return mapped(__real_mmap64(addr, len, prot, flags, fd, off), len, fd);
}

char *iotap_object_inodes(void)
{
	size_t len = 0, cap = 1;
	char *s;

	for (size_t i = 0; i < tap.nfiles; i++)
		cap += 48;
	s = malloc(cap);
	if (!s)
		die(EXIT_LAB_RUNTIME, "out of memory");
	s[0] = 0;
	for (size_t i = 0; i < tap.nfiles; i++) {
		const struct tap_file *f = &tap.files[i];

		if (f->object < 0 || !f->ino)
			continue;
		len += (size_t)snprintf(s + len, cap - len, "%s%lld:%llu", len ? " " : "",
					(long long)f->object, f->ino);
	}
	return s;
}
