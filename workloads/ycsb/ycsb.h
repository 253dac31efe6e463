/*
 * The YCSB core workloads (Cooper et al., "Benchmarking Cloud Serving
 * Systems with YCSB", SoCC 2010; workloads/workload[a-f] and CoreWorkload
 * of the YCSB code) over a storage engine, on the lab's workload driver.
 *
 *   mix  read  update  insert  scan  read-modify-write  keys
 *   a    0.50  0.50                                      zipfian
 *   b    0.95  0.05                                      zipfian
 *   c    1.00                                            zipfian
 *   d    0.95          0.05                              latest
 *   e                  0.05    0.95                      zipfian
 *   f    0.50                        0.50                zipfian
 *
 * Records are YCSB's default: 10 fields of 100 bytes (1 KB), keys "user"
 * + FNV-1a hash of the key number (insertorder=hashed), every field read
 * (readallfields=true). Scans cover 1..100 records, uniformly (E). Several
 * mixes run one after another on the same database (YCSB's recommended
 * sequence is a, b, c, f, d, e), each with --ops operations. The
 * request distributions are lib/ycsbgen.h's. Deviation: a write rewrites
 * all ten fields (writeallfields=true), so each record has one version.
 *
 * Verification: field 0 begins with "YCSB", the key number (u64) and the
 * record's version (u32), little-endian; the other 984 bytes are
 * mix64(H(seed, key, version) + j) words. The workload keeps every key's
 * version (updates bump it) and checks every byte of every record it reads
 * or scans, that a scanned record belongs to the key it is stored under
 * and that a scan's keys increase; a mismatch, a missing record or the
 * engine reporting corruption is exit 3. The versions persist in
 * DIR/ycsb-ENGINE.state between --phase setup and the runs; a run that did
 * not finish leaves the state marked unclean, and the next run refuses.
 */
#ifndef LAB_YCSB_H
#define LAB_YCSB_H

#include "driver.h"
#include "hist.h"
#include "ycsbgen.h"

#include <stddef.h>
#include <stdint.h>

#define YCSB_FIELDS 10
#define YCSB_FIELD_BYTES 100
#define YCSB_RECORD_BYTES (YCSB_FIELDS * YCSB_FIELD_BYTES)
#define YCSB_MAX_SCAN 100

enum ycsb_op { OP_READ, OP_UPDATE, OP_INSERT, OP_SCAN, OP_RMW, OP_KINDS };

struct ycsb;

/* What an engine does for the core. Errors: die(EXIT_LAB_RUNTIME, ...), or
 * ycsb_corrupt() when the engine reports damaged data. */
struct ycsb_engine {
	const char *name;       /* "leveldb": the binary is ycsb-leveldb */
	const char *about;      /* the engine's paragraph of --help */
	const char *data_suffix; /* files whose residency is reported */
	uint64_t record_bytes;  /* on-disk bytes per record: records = size / it */
	int load_sorted;        /* setup inserts in key order (else key number order) */
	int concurrent_reads;   /* get and scan may run in two threads at once (mix g) */
	/* Create a new database in dir (setup) or open the existing one. */
	void (*open)(struct ycsb *y, const char *dir, int create);
	void (*close)(struct ycsb *y);
	/* Insert n records, keys[i] and values[i] built by the core. */
	void (*load)(struct ycsb *y, uint64_t n, const uint64_t *keynums);
	/* 1 and value filled (*len bytes, at most YCSB_RECORD_BYTES + 1), or 0
	 * when the key is absent. */
	int (*get)(struct ycsb *y, const char *key, size_t klen, unsigned char *value,
		   size_t *len);
	void (*put)(struct ycsb *y, const char *key, size_t klen, const unsigned char *value,
		    int insert);
	/* Up to n records from key on, in key order, each to ycsb_scanned(). */
	void (*scan)(struct ycsb *y, const char *key, size_t klen, uint64_t n);
};

struct ycsb {
	struct wl *w;
	const struct ycsb_engine *eng;
	void *engine; /* the engine's state */
	char mixes[8]; /* the mixes to run, in order: "a", or e.g. "abcfde" */
	int dist; /* enum ycsb_dist, or -1: each mix's own */
	uint64_t ops;
	uint64_t cache_bytes;
	const char *cache_arg;
	uint64_t records; /* loaded by setup */
	uint64_t keys;    /* records + inserted */
	uint32_t *versions;
	uint64_t versions_cap;
	char *db_path, *state_path;
	struct hist hist[OP_KINDS];
	uint64_t scanned;
	char last_key[YCSB_KEY_MAX];
	uint64_t scan_first;
	uint64_t scan_threads;   /* mix g's streaming threads */
	uint64_t stream_passes;  /* mix g: whole passes they made */
	uint64_t stream_records; /* mix g: records they read and verified */
};

/* main() of a binary on an engine: program is its name (NULL:
 * "ycsb-ENGINE"), mix its default --workload. */
int ycsb_main(int argc, char **argv, const struct ycsb_engine *eng, void *engine,
	      const char *program, const char *mix);

/* The record of (keynum, version), YCSB_RECORD_BYTES bytes. */
void ycsb_record(const struct ycsb *y, uint64_t keynum, uint32_t version, unsigned char *buf);
/* Called by engine->scan for every record it returns. */
void ycsb_scanned(struct ycsb *y, const char *key, size_t klen, const unsigned char *value,
		  size_t len);
/* The engine found damaged data (checksum, malformed page): exit 3. */
_Noreturn void ycsb_corrupt(struct ycsb *y, const char *what, const char *detail);

#endif
