/* Stamped data files for the file-backed workloads. */
#ifndef LAB_DATAFILE_H
#define LAB_DATAFILE_H

#include <stddef.h>
#include <stdint.h>

/* "dir/name" in a malloc'd string; exits 1 if out of memory. */
char *datafile_path(const char *dir, const char *name);

/*
 * Create path with pages stamped pages (stamp_key(seed, object, page, 0)),
 * written under a temporary name, fsynced and renamed into place so a
 * failed setup never leaves a half-written file. A one-line "path.meta"
 * records seed, object and pages so a run with other options is refused
 * (exit 1) instead of being reported as lost data. Returns 0 or an errno.
 */
int datafile_create(const char *path, uint64_t pages, uint64_t seed, uint64_t object);

/* Remove path and everything under it (no error when it is absent).
 * Returns 0 or an errno. */
int datafile_remove_tree(const char *path);

/* "path.tmp.PID", malloc'd: where a data file is written before its commit. */
char *datafile_tmp_path(const char *path);

/*
 * Put a data file, written and fsynced under tmp by someone else (fio), in
 * place as path with its "path.meta" record, as datafile_create does for
 * its own: the old record goes first, then the rename, the new record and
 * an fsync of the directory. Returns 0 or an errno; tmp stays on failure.
 */
int datafile_commit(const char *tmp, const char *path, uint64_t pages, uint64_t seed,
		    uint64_t object);

/*
 * Open path and check it holds exactly pages pages and was set up with
 * this seed and object. Returns the fd, or exits 1 with a message naming
 * the file and suggesting setup.
 */
int datafile_open(const char *path, uint64_t pages, uint64_t seed, uint64_t object, int flags);

/*
 * The one-line record ("DATA.meta") of a data set laid out by other means
 * (file-search's tree, pgbench's cluster): write line into record, in
 * place (the caller syncs), or exit 1; check that record holds want (its
 * line read into at most line_max bytes, the size of the caller's want
 * buffer), or exit 1: missing, "run --phase setup first"; another line,
 * "WHAT was set up as '...' but this run needs '...'".
 */
void datafile_write_record(const char *record, const char *line);
void datafile_check_record(const char *record, const char *what, const char *want,
			   size_t line_max);

/*
 * Push a data set out of the page cache before the timed phase: fsync,
 * POSIX_FADV_DONTNEED, then (if drop) "3" into /proc/sys/vm/drop_caches.
 * Lacking the right to drop caches (not root, read-only /proc) is ignored.
 * Returns 0 or an errno.
 */
int datafile_uncache(int fd, int drop);
int drop_caches(void);

#endif
