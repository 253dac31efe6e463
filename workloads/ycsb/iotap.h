/*
 * The I/O tap of the storage-engine workloads: LevelDB and SQLite do their
 * own file I/O, so the binary is linked with -Wl,--wrap for open, open64,
 * close, read, write, pread, pread64, pwrite64, mmap and mmap64, and the
 * __wrap_ functions here see every call the engines (and the workload)
 * make. For a file under the database directory the tap
 *
 *  - with readahead off, calls posix_fadvise(POSIX_FADV_RANDOM) on the new
 *    fd and madvise(MADV_RANDOM) on every mapping of it, as the driver does
 *    for the other file workloads;
 *  - while recording (the run phase, from opening the database to closing
 *    it), adds one reference per 4 KiB page each read or write transfers
 *    (the pages of [offset, offset + bytes returned)) to the reference
 *    string. Objects are the database's files, numbered densely
 *    in the order of their first reference; a page is its file offset /
 *    4096.
 *
 * What the string leaves out (it is a view of the page cache through
 * system calls): accesses through a mapping (SQLite's -shm index, 32 KiB),
 * stdio writes (LevelDB's LOG), the file system's own metadata, and hits
 * in the engines' own caches, which touch no page cache page at all. The
 * calls of LevelDB's compaction thread are interleaved with the
 * foreground's in the order they return.
 */
#ifndef LAB_IOTAP_H
#define LAB_IOTAP_H

#include "refs.h"

/* Watch the files whose path starts with dir + "/" (dir as the engine is
 * given it). readahead: 0 = advise random access. */
void iotap_init(const char *dir, int readahead);
/* Start (refs) or stop (NULL) recording references. */
void iotap_record(struct refs *refs);
/* "OBJ:INO ..." of the files referenced so far (malloc'd; "" for none):
 * RESULT's object_inodes. */
char *iotap_object_inodes(void);

#endif
