/*
 * ycsb-sqlite: the YCSB core workloads (ycsb/ycsb.h) on SQLite, Debian's
 * libsqlite3 3.40, linked statically.
 *
 * Database: DIR/ycsb-sqlite/usertable.db, YCSB's JDBC schema:
 *
 *   CREATE TABLE usertable(ycsb_key TEXT PRIMARY KEY,
 *                          field0 BLOB, ..., field9 BLOB)
 *
 * a rowid table: its B-tree is keyed by rowid (the order of insertion, the
 * key number), and the primary key is a separate index B-tree (key ->
 * rowid), so every point read walks the secondary index, then the table.
 * Setup inserts in key-number order, as YCSB's load does, in transactions
 * of 10000 rows, then checkpoints the WAL into the database file.
 *
 * Settings: journal_mode=WAL; synchronous=NORMAL (in WAL mode, no fsync
 * per commit; the WAL is synced at checkpoints); every operation its own
 * transaction (autocommit, as YCSB's JDBC binding); mmap_size=0, so pages
 * are read with pread; cache_size = --cache (default 1 MiB, 256 pages, so
 * the kernel's page cache, not SQLite's, decides what stays in memory;
 * setup uses 16 MiB to load faster).
 */
#include "err.h"
#include "ycsb.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DB_FILE "usertable.db"
#define LOAD_TXN 10000
#define SETUP_CACHE_KIB 16384

enum stmt { S_GET, S_INSERT, S_UPDATE, S_SCAN, S_COUNT };

static const char *const sql[S_COUNT] = {
	"SELECT field0, field1, field2, field3, field4, field5, field6, field7, field8, field9 "
	"FROM usertable WHERE ycsb_key = ?1",
	"INSERT INTO usertable VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
	"UPDATE usertable SET field0 = ?2, field1 = ?3, field2 = ?4, field3 = ?5, field4 = ?6, "
	"field5 = ?7, field6 = ?8, field7 = ?9, field8 = ?10, field9 = ?11 WHERE ycsb_key = ?1",
	"SELECT ycsb_key, field0, field1, field2, field3, field4, field5, field6, field7, field8, "
	"field9 FROM usertable WHERE ycsb_key >= ?1 ORDER BY ycsb_key LIMIT ?2",
};

struct lite {
	sqlite3 *db;
	sqlite3_stmt *stmt[S_COUNT];
	char *path;
};

/* SQLite's message, with the system's reason when an I/O call failed
 * ("disk I/O error: No space left on device"). */
static const char *why(struct lite *s)
{
	static char msg[256];
	int err = sqlite3_system_errno(s->db);

	if (!err)
		return sqlite3_errmsg(s->db);
	snprintf(msg, sizeof(msg), "%s: %s", sqlite3_errmsg(s->db), strerror(err));
	return msg;
}

static int damaged(int rc)
{
	rc &= 0xff;
	return rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB;
}

/* A failed call: damaged data is exit 3, anything else exit 1. */
static _Noreturn void failed(struct ycsb *y, const char *what, const char *key)
{
	struct lite *s = y->engine;
	int rc = sqlite3_extended_errcode(s->db);

	if (damaged(rc))
		ycsb_corrupt(y, key ? key : what, sqlite3_errmsg(s->db));
	die(EXIT_LAB_RUNTIME, "%s: %s", what, why(s));
}

static void exec(struct ycsb *y, const char *what, const char *statement)
{
	struct lite *s = y->engine;

	if (sqlite3_exec(s->db, statement, NULL, NULL, NULL) != SQLITE_OK)
		failed(y, what, NULL);
}

static void lite_open(struct ycsb *y, const char *dir, int create)
{
	struct lite *s = y->engine;
	size_t len = strlen(dir) + sizeof(DB_FILE) + 2;
	char pragma[64];
	int rc;

	free(s->path);
	s->path = malloc(len);
	if (!s->path)
		die(EXIT_LAB_RUNTIME, "out of memory");
	snprintf(s->path, len, "%s/%s", dir, DB_FILE);
	rc = sqlite3_open_v2(s->path, &s->db,
			     SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0), NULL);
	if (rc != SQLITE_OK)
		die(EXIT_LAB_RUNTIME, "cannot %s %s: %s%s", create ? "create" : "open", s->path,
		    s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc),
		    create ? "" : " (run --phase setup first)");
	exec(y, "cannot switch to WAL mode", "PRAGMA journal_mode = WAL");
	exec(y, "cannot set synchronous", "PRAGMA synchronous = NORMAL");
	exec(y, "cannot set mmap_size", "PRAGMA mmap_size = 0");
	snprintf(pragma, sizeof(pragma), "PRAGMA cache_size = -%llu",
		 create ? (unsigned long long)SETUP_CACHE_KIB
			: (unsigned long long)(y->cache_bytes + 1023) / 1024);
	exec(y, "cannot set cache_size", pragma);
	if (create)
		exec(y, "cannot create the table",
		     "CREATE TABLE usertable (ycsb_key TEXT PRIMARY KEY, field0 BLOB, field1 BLOB, "
		     "field2 BLOB, field3 BLOB, field4 BLOB, field5 BLOB, field6 BLOB, field7 BLOB, "
		     "field8 BLOB, field9 BLOB)");
	for (int i = 0; i < S_COUNT; i++)
		if (sqlite3_prepare_v2(s->db, sql[i], -1, &s->stmt[i], NULL) != SQLITE_OK)
			failed(y, "cannot prepare a statement", NULL);
}

static void lite_close(struct ycsb *y)
{
	struct lite *s = y->engine;

	for (int i = 0; i < S_COUNT; i++)
		sqlite3_finalize(s->stmt[i]);
	if (sqlite3_close(s->db) != SQLITE_OK)
		failed(y, "cannot close the database", NULL);
	s->db = NULL;
}

static void bind_record(struct ycsb *y, sqlite3_stmt *st, const char *key, size_t klen,
			const unsigned char *value)
{
	if (sqlite3_bind_text(st, 1, key, (int)klen, SQLITE_TRANSIENT) != SQLITE_OK)
		failed(y, "bind failed", key);
	for (int f = 0; f < YCSB_FIELDS; f++)
		if (sqlite3_bind_blob(st, f + 2, value + f * YCSB_FIELD_BYTES, YCSB_FIELD_BYTES,
				      SQLITE_STATIC) != SQLITE_OK)
			failed(y, "bind failed", key);
}

/* Run a write statement to its end. */
static void step_write(struct ycsb *y, sqlite3_stmt *st, const char *what, const char *key)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		failed(y, what, key);
}

static void lite_load(struct ycsb *y, uint64_t n, const uint64_t *keynums)
{
	struct lite *s = y->engine;
	unsigned char value[YCSB_RECORD_BYTES];
	char key[YCSB_KEY_MAX];

	for (uint64_t i = 0; i < n; i++) {
		size_t klen = ycsb_key_name(keynums[i], key);

		if (i % LOAD_TXN == 0)
			exec(y, "cannot begin a transaction", "BEGIN");
		ycsb_record(y, keynums[i], 0, value);
		bind_record(y, s->stmt[S_INSERT], key, klen, value);
		if (sqlite3_step(s->stmt[S_INSERT]) != SQLITE_DONE)
			die(EXIT_LAB_RUNTIME, "cannot create the database %s: %s", s->path, why(s));
		sqlite3_reset(s->stmt[S_INSERT]);
		if ((i + 1) % LOAD_TXN == 0 || i + 1 == n)
			if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
				die(EXIT_LAB_RUNTIME, "cannot create the database %s: %s", s->path,
				    why(s));
	}
	if (sqlite3_exec(s->db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL) != SQLITE_OK)
		die(EXIT_LAB_RUNTIME, "cannot create the database %s: %s", s->path, why(s));
}

/* The ten fields of the row at st's columns first..first+9, concatenated;
 * a field that is not 100 bytes makes *len the wrong size for the check. */
static void row_value(sqlite3_stmt *st, int first, unsigned char *value, size_t *len)
{
	*len = 0;
	for (int f = 0; f < YCSB_FIELDS; f++) {
		const void *b = sqlite3_column_blob(st, first + f);

		if (sqlite3_column_bytes(st, first + f) != YCSB_FIELD_BYTES || !b) {
			*len = YCSB_RECORD_BYTES + 1;
			return;
		}
		memcpy(value + *len, b, YCSB_FIELD_BYTES);
		*len += YCSB_FIELD_BYTES;
	}
}

static int lite_get(struct ycsb *y, const char *key, size_t klen, unsigned char *value,
		    size_t *len)
{
	struct lite *s = y->engine;
	sqlite3_stmt *st = s->stmt[S_GET];
	int rc;

	if (sqlite3_bind_text(st, 1, key, (int)klen, SQLITE_TRANSIENT) != SQLITE_OK)
		failed(y, "bind failed", key);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		row_value(st, 0, value, len);
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		failed(y, "read failed", key);
	return rc == SQLITE_ROW;
}

static void lite_put(struct ycsb *y, const char *key, size_t klen, const unsigned char *value,
		     int insert)
{
	struct lite *s = y->engine;
	sqlite3_stmt *st = s->stmt[insert ? S_INSERT : S_UPDATE];

	bind_record(y, st, key, klen, value);
	step_write(y, st, insert ? "insert failed" : "update failed", key);
	if (sqlite3_changes(s->db) != 1) {
		char where[64];

		snprintf(where, sizeof(where), "%s changed %d rows (the record is missing)",
			 insert ? "insert" : "update", sqlite3_changes(s->db));
		ycsb_corrupt(y, key, where);
	}
}

static void lite_scan(struct ycsb *y, const char *key, size_t klen, uint64_t n)
{
	struct lite *s = y->engine;
	sqlite3_stmt *st = s->stmt[S_SCAN];
	unsigned char value[YCSB_RECORD_BYTES + 1];
	int rc;

	if (sqlite3_bind_text(st, 1, key, (int)klen, SQLITE_TRANSIENT) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 2, (sqlite3_int64)n) != SQLITE_OK)
		failed(y, "bind failed", key);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(st, 0);
		size_t len;

		row_value(st, 1, value, &len);
		ycsb_scanned(y, k ? k : "", k ? (size_t)sqlite3_column_bytes(st, 0) : 0, value, len);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		failed(y, "scan failed", key);
}

static const struct ycsb_engine engine = {
	.name = "sqlite",
	.about = "The YCSB core workloads (Cooper et al., SoCC 2010) on SQLite 3.40:\n"
		 "1 KB records of 10 fields, zipfian/latest/uniform keys as in YCSB's\n"
		 "code, every record read verified (key, version, every byte).\n"
		 "Database: DIR/ycsb-sqlite/usertable.db, one rowid table with a\n"
		 "primary-key index on ycsb_key, WAL mode, synchronous=NORMAL,\n"
		 "cache_size --cache, no mmap; about 1400 bytes on disk per record.\n",
	.data_suffix = ".db",
	.record_bytes = 1400,
	.load_sorted = 0,
	.open = lite_open,
	.close = lite_close,
	.load = lite_load,
	.get = lite_get,
	.put = lite_put,
	.scan = lite_scan,
};

int main(int argc, char **argv)
{
	struct lite s = { 0 };
	int rc = ycsb_main(argc, argv, &engine, &s, NULL, "a");

	free(s.path);
	return rc;
}
