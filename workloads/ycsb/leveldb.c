/*
 * LevelDB as an engine of the YCSB core (ycsb.h): Debian's libleveldb 1.23,
 * linked statically (it is C++: g++ links it; this file is C and uses
 * LevelDB's C API). ycsb-leveldb and get-scan run on it.
 *
 * Database: DIR/ycsb-leveldb, key = the YCSB key, value = the 1000-byte
 * record. Options: no compression (the values are random bytes, which
 * snappy cannot shrink), a 10-bit-per-key Bloom filter (LevelDB's advice
 * for point lookups), a block cache of --cache bytes (LevelDB's default is
 * 8 MiB; this lab's default 1 MiB leaves the decisions to the kernel),
 * LevelDB's other defaults (4 MiB write buffer, 2 MiB tables, 4 KiB
 * blocks, up to 1000 open files), checksums verified on every read, writes
 * not synced (YCSB's leveldb binding).
 *
 * LevelDB reads its tables through mmap by default (up to 1000 files);
 * here it reads them with pread, so that every read reaches the I/O tap
 * (reference strings, readahead advice) and its block cache and the page
 * cache play the roles SQLite's cache and the page cache play in
 * ycsb-sqlite. The only switch LevelDB has for that is its test hook
 * EnvPosixTestHelper::SetReadOnlyMMapLimit(0), a static member function
 * taking an int, called below through its Itanium C++ ABI name.
 *
 * Setup inserts the records in key order, in batches of 1000, so that
 * LevelDB places the tables without rewriting them (the records are YCSB's
 * load phase's; only their order differs), then closes and reopens the
 * database once so that the last memtable is written to a table.
 */
#include "leveldb.h"

#include "err.h"
#include "ycsb.h"

#include <leveldb/c.h>
#include <stdlib.h>
#include <string.h>

#define LOAD_BATCH 1000

/* leveldb::EnvPosixTestHelper::SetReadOnlyMMapLimit(int) */
extern void leveldb_set_mmap_limit(int limit)
	__asm__("_ZN7leveldb18EnvPosixTestHelper20SetReadOnlyMMapLimitEi");

struct ldb {
	leveldb_t *db;
	leveldb_options_t *options;
	leveldb_readoptions_t *read;
	leveldb_writeoptions_t *write;
	leveldb_cache_t *cache;
	leveldb_filterpolicy_t *filter;
	char *dir;
};

/* LevelDB's Status text: "Corruption: ..." is damaged data (exit 3). */
static void check(struct ycsb *y, char *err, const char *what, const char *key)
{
	if (!err)
		return;
	if (!strncmp(err, "Corruption:", 11))
		ycsb_corrupt(y, key ? key : what, err);
	die(EXIT_LAB_RUNTIME, "%s: %s", what, err);
}

static void ldb_open(struct ycsb *y, const char *dir, int create)
{
	struct ldb *l = y->engine;
	char *err = NULL;

	l->options = leveldb_options_create();
	l->cache = leveldb_cache_create_lru(y->cache_bytes);
	l->filter = leveldb_filterpolicy_create_bloom(10);
	leveldb_options_set_create_if_missing(l->options, create);
	leveldb_options_set_error_if_exists(l->options, create);
	leveldb_options_set_compression(l->options, leveldb_no_compression);
	leveldb_options_set_cache(l->options, l->cache);
	leveldb_options_set_filter_policy(l->options, l->filter);
	l->read = leveldb_readoptions_create();
	leveldb_readoptions_set_verify_checksums(l->read, 1);
	l->write = leveldb_writeoptions_create();
	leveldb_writeoptions_set_sync(l->write, 0);
	free(l->dir);
	l->dir = strdup(dir);
	if (!l->dir)
		die(EXIT_LAB_RUNTIME, "out of memory");
	l->db = leveldb_open(l->options, dir, &err);
	if (err && create)
		die(EXIT_LAB_RUNTIME, "cannot create the database in %s: %s", dir, err);
	check(y, err, "cannot open the database (run --phase setup first)", NULL);
}

static void ldb_close(struct ycsb *y)
{
	struct ldb *l = y->engine;

	leveldb_close(l->db);
	leveldb_options_destroy(l->options);
	leveldb_readoptions_destroy(l->read);
	leveldb_writeoptions_destroy(l->write);
	leveldb_cache_destroy(l->cache);
	leveldb_filterpolicy_destroy(l->filter);
	l->db = NULL;
}

static void ldb_load(struct ycsb *y, uint64_t n, const uint64_t *keynums)
{
	struct ldb *l = y->engine;
	leveldb_writebatch_t *batch = leveldb_writebatch_create();
	unsigned char value[YCSB_RECORD_BYTES];
	char key[YCSB_KEY_MAX], *err = NULL;

	for (uint64_t i = 0; i < n; i++) {
		size_t klen = ycsb_key_name(keynums[i], key);

		ycsb_record(y, keynums[i], 0, value);
		leveldb_writebatch_put(batch, key, klen, (const char *)value, sizeof(value));
		if ((i + 1) % LOAD_BATCH && i + 1 < n)
			continue;
		leveldb_write(l->db, l->write, batch, &err);
		if (err)
			die(EXIT_LAB_RUNTIME, "cannot create the database in %s: %s", l->dir, err);
		leveldb_writebatch_clear(batch);
	}
	leveldb_writebatch_destroy(batch);
	/* Reopening writes the last memtable to a table (and an empty log). */
	{
		char *dir = strdup(l->dir);

		if (!dir)
			die(EXIT_LAB_RUNTIME, "out of memory");
		ldb_close(y);
		ldb_open(y, dir, 0);
		free(dir);
	}
}

static int ldb_get(struct ycsb *y, const char *key, size_t klen, unsigned char *value,
		   size_t *len)
{
	struct ldb *l = y->engine;
	char *err = NULL;
	size_t vlen;
	char *v = leveldb_get(l->db, l->read, key, klen, &vlen, &err);

	check(y, err, "read failed", key);
	if (!v)
		return 0;
	*len = vlen;
	memcpy(value, v, vlen > YCSB_RECORD_BYTES ? YCSB_RECORD_BYTES + 1 : vlen);
	leveldb_free(v);
	return 1;
}

static void ldb_put(struct ycsb *y, const char *key, size_t klen, const unsigned char *value,
		    int insert)
{
	struct ldb *l = y->engine;
	char *err = NULL;

	leveldb_put(l->db, l->write, key, klen, (const char *)value, YCSB_RECORD_BYTES, &err);
	check(y, err, insert ? "insert failed" : "update failed", key);
}

static void ldb_scan(struct ycsb *y, const char *key, size_t klen, uint64_t n)
{
	struct ldb *l = y->engine;
	leveldb_iterator_t *it = leveldb_create_iterator(l->db, l->read);
	char *err = NULL;

	leveldb_iter_seek(it, key, klen);
	for (uint64_t i = 0; i < n && leveldb_iter_valid(it); i++) {
		size_t kl, vl;
		const char *k = leveldb_iter_key(it, &kl);
		const char *v = leveldb_iter_value(it, &vl);

		ycsb_scanned(y, k, kl, (const unsigned char *)v, vl);
		leveldb_iter_next(it);
	}
	leveldb_iter_get_error(it, &err);
	check(y, err, "scan failed", key);
	leveldb_iter_destroy(it);
}

const struct ycsb_engine ycsb_leveldb = {
	.name = "leveldb",
	.about = "The YCSB core workloads (Cooper et al., SoCC 2010) on LevelDB 1.23:\n"
		 "1 KB records of 10 fields, zipfian/latest/uniform keys as in YCSB's\n"
		 "code, every record read verified (key, version, every byte).\n"
		 "Database: DIR/ycsb-leveldb, no compression, 10-bit Bloom filter,\n"
		 "block cache --cache, tables read with pread (not mmap), about\n"
		 "1060 bytes on disk per record.\n",
	.data_suffix = ".ldb",
	.record_bytes = 1060,
	.load_sorted = 1,
	.concurrent_reads = 1, /* a leveldb_t is safe in several threads */
	.open = ldb_open,
	.close = ldb_close,
	.load = ldb_load,
	.get = ldb_get,
	.put = ldb_put,
	.scan = ldb_scan,
};

void *ycsb_leveldb_new(void)
{
	struct ldb *l = calloc(1, sizeof(*l));

	if (!l)
		die(EXIT_LAB_RUNTIME, "out of memory");
	leveldb_set_mmap_limit(0);
	return l;
}

void ycsb_leveldb_free(void *state)
{
	struct ldb *l = state;

	free(l->dir);
	free(l);
}
