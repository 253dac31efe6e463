/*
 * mdb-bench: the LRU-K paper's "indexed database" (low-frequency) pattern.
 * A database of I index pages and R record pages (R = 100 I) is read by
 * random key lookups, each touching its index page and then its record
 * page. With uniform keys each index page is ~100x hotter than a record
 * page, so the ideal policy keeps the whole index resident while LRU lets
 * record pages push index pages out. Every page read is verified.
 *
 * Layout: keys_per_record_page = 2 (2000-byte records in 4000-byte pages as
 * in the paper), keys K = 2 R, keys_per_index_page = ceil(K / I); key k
 * lives in index page k / keys_per_index_page and record page k / 2.
 */
#include "args.h"
#include "clock.h"
#include "datafile.h"
#include "err.h"
#include "meminfo.h"
#include "prng.h"
#include "refs.h"
#include "result.h"
#include "stamp.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define NAME "mdb-bench"
#define INDEX_FILE "mdb-index.dat"
#define RECORD_FILE "mdb-records.dat"
#define RECORDS_PER_INDEX_PAGE 100u
#define KEYS_PER_RECORD_PAGE 2u
#define DEFAULT_OPS 200000u
#define INDEX_OBJECT 0u
#define RECORD_OBJECT 1u

enum mode { MODE_PREAD, MODE_MMAP };

static void usage(void)
{
	printf("Usage: " NAME " [options]\n"
	       "Random key lookups on a file-backed database: each lookup reads the\n"
	       "key's index page, then its record page (the LRU-K paper's indexed\n"
	       "database; index pages are ~100x hotter than record pages).\n\n"
	       "  --size SIZE       index + records: bytes with K/M/G/T suffix or N%%\n"
	       "                    of MemTotal (default 150%%); records get 100/101\n"
	       "                    of the pages, the index the rest (1%% of records)\n"
	       "  --dir DIR         data directory (default /data); files " INDEX_FILE "\n"
	       "                    and " RECORD_FILE "\n"
	       "  --ops N           lookups, each an index and a record access\n"
	       "                    (default %u)\n"
	       "  --mode MODE       pread (default) or mmap (shared read-only maps)\n"
	       "  --mlock-index     mmap the index and mlock it before the timed loop\n"
	       "                    (index accesses then go through that mapping)\n"
	       "  --seed N          key and stamp seed (default 1); run needs setup's\n"
	       "  --phase PHASE     setup: create and stamp both files; run: the timed\n"
	       "                    lookups only; all (default): setup, fsync,\n"
	       "                    fadvise(DONTNEED), drop caches if allowed, run\n"
	       "  --no-drop-caches  with --phase all, do not write drop_caches\n"
	       "  --emit-refs FILE  write the page reference string (index pages are\n"
	       "                    object 0, record pages object 1)\n"
	       "  --help            this text\n\n"
	       "Reports ops/s and the fraction of index (and record) pages resident in\n"
	       "the page cache at the end (mincore on a mapping of each file).\n"
	       "Exit: 0 ok, 1 runtime error, 2 bad arguments, 3 verification failed.\n",
	       DEFAULT_OPS);
}

struct opts {
	uint64_t size;
	uint64_t ops;
	uint64_t seed;
	const char *dir;
	enum mode mode;
	int mlock_index;
	int keep_caches;
	enum phase phase;
	const char *refs_path;
};

static void parse(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "ops", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 'S' },
		{ "phase", required_argument, NULL, 'P' },
		{ "dir", required_argument, NULL, 'd' },
		{ "mode", required_argument, NULL, 'm' },
		{ "mlock-index", no_argument, NULL, 'l' },
		{ "no-drop-caches", no_argument, NULL, 'n' },
		{ "emit-refs", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *size_arg = "150%";
	int c;

	memset(o, 0, sizeof(*o));
	o->ops = DEFAULT_OPS;
	o->seed = 1;
	o->dir = "/data";
	o->mode = MODE_PREAD;
	o->phase = PHASE_ALL;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			size_arg = optarg;
			break;
		case 'o':
			o->ops = arg_positive("--ops", optarg);
			break;
		case 'S':
			o->seed = arg_u64("--seed", optarg);
			break;
		case 'P':
			o->phase = arg_phase(optarg);
			break;
		case 'd':
			o->dir = optarg;
			break;
		case 'm':
			if (!strcmp(optarg, "pread"))
				o->mode = MODE_PREAD;
			else if (!strcmp(optarg, "mmap"))
				o->mode = MODE_MMAP;
			else
				die(EXIT_LAB_USAGE, "bad --mode value '%s': expected pread or mmap",
				    optarg);
			break;
		case 'l':
			o->mlock_index = 1;
			break;
		case 'n':
			o->keep_caches = 1;
			break;
		case 'r':
			o->refs_path = optarg;
			break;
		case 'h':
			usage();
			exit(0);
		default:
			arg_getopt_failed(c, argv, optind);
		}
	}
	arg_no_positionals(argc, argv, optind);
	o->size = arg_size("--size", size_arg, meminfo_total()) / LAB_PAGE_SIZE * LAB_PAGE_SIZE;
	if (o->size / LAB_PAGE_SIZE < RECORDS_PER_INDEX_PAGE + 1)
		die(EXIT_LAB_USAGE, "bad --size value '%s': need at least %u pages (%u KiB)",
		    size_arg, RECORDS_PER_INDEX_PAGE + 1, (RECORDS_PER_INDEX_PAGE + 1) * 4);
	if (access(o->dir, W_OK | X_OK) && (o->phase != PHASE_RUN || access(o->dir, X_OK)))
		die(EXIT_LAB_USAGE, "bad --dir value '%s': %s", o->dir, strerror(errno));
}

struct db {
	uint64_t index_pages, record_pages, keys, keys_per_index_page;
	int index_fd, record_fd;
	const unsigned char *index_map, *record_map;
	unsigned char *buf;
};

static void db_layout(struct db *db, uint64_t size)
{
	uint64_t pages = size / LAB_PAGE_SIZE;

	db->record_pages = pages * RECORDS_PER_INDEX_PAGE / (RECORDS_PER_INDEX_PAGE + 1);
	db->index_pages = pages - db->record_pages;
	db->keys = db->record_pages * KEYS_PER_RECORD_PAGE;
	db->keys_per_index_page = (db->keys + db->index_pages - 1) / db->index_pages;
}

static const unsigned char *map_file(int fd, uint64_t pages, const char *what)
{
	void *p = mmap(NULL, pages * LAB_PAGE_SIZE, PROT_READ, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		die(EXIT_LAB_RUNTIME, "cannot map the %s file: %s", what, strerror(errno));
	return p;
}

/* Fraction of the file's pages in the page cache, by mincore(). */
static double resident_fraction(int fd, uint64_t pages, const char *what)
{
	long sys_page = sysconf(_SC_PAGESIZE);
	size_t len = pages * LAB_PAGE_SIZE;
	size_t vec_len = (len + (size_t)sys_page - 1) / (size_t)sys_page;
	const unsigned char *map = map_file(fd, pages, what);
	unsigned char *vec = malloc(vec_len);
	uint64_t resident = 0;

	if (!vec)
		die(EXIT_LAB_RUNTIME, "out of memory");
	if (mincore((void *)map, len, vec))
		die(EXIT_LAB_RUNTIME, "mincore on the %s file failed: %s", what, strerror(errno));
	for (size_t i = 0; i < vec_len; i++)
		resident += vec[i] & 1;
	free(vec);
	munmap((void *)map, len);
	return (double)resident / (double)vec_len;
}

static const unsigned char *read_page(struct db *db, int record, uint64_t page)
{
	const unsigned char *map = record ? db->record_map : db->index_map;
	ssize_t n;

	if (map)
		return map + page * LAB_PAGE_SIZE;
	n = pread(record ? db->record_fd : db->index_fd, db->buf, LAB_PAGE_SIZE,
		  (off_t)(page * LAB_PAGE_SIZE));
	if (n != (ssize_t)LAB_PAGE_SIZE)
		die(EXIT_LAB_RUNTIME, "read of %s page %llu failed: %s",
		    record ? "record" : "index", (unsigned long long)page,
		    n < 0 ? strerror(errno) : "short read");
	return db->buf;
}

static void check_page(struct db *db, const struct opts *o, int record, uint64_t page,
		       uint64_t op, struct refs *refs, struct result *res, double start)
{
	unsigned object = record ? RECORD_OBJECT : INDEX_OBJECT;
	long bad = stamp_mismatch(read_page(db, record, page),
				  stamp_key(o->seed, object, page, 0));
	char where[128];

	if (bad < 0)
		return;
	refs_abort(refs);
	snprintf(where, sizeof(where), "op %llu %s page %llu offset %ld",
		 (unsigned long long)op, record ? "record" : "index", (unsigned long long)page,
		 bad);
	result_bool(res, "verified", 0);
	result_str(res, "verify_error", where);
	result_num(res, "elapsed_s", clock_now() - start);
	result_print(res);
	die(EXIT_LAB_VERIFY, "verification failed at op %llu, %s page %llu (byte offset %ld)",
	    (unsigned long long)op, record ? "record" : "index", (unsigned long long)page, bad);
}

static double run(const struct opts *o, struct db *db, struct refs *refs, struct result *res)
{
	struct prng rng;
	double start;

	if (o->mode == MODE_MMAP || o->mlock_index)
		db->index_map = map_file(db->index_fd, db->index_pages, "index");
	if (o->mode == MODE_MMAP)
		db->record_map = map_file(db->record_fd, db->record_pages, "record");
	else if (posix_memalign((void **)&db->buf, LAB_PAGE_SIZE, LAB_PAGE_SIZE))
		die(EXIT_LAB_RUNTIME, "out of memory");
	if (o->mlock_index && mlock(db->index_map, db->index_pages * LAB_PAGE_SIZE))
		die(EXIT_LAB_RUNTIME, "cannot mlock the %llu-page index: %s (raise RLIMIT_MEMLOCK?)",
		    (unsigned long long)db->index_pages, strerror(errno));

	prng_seed(&rng, o->seed);
	start = clock_now();
	for (uint64_t op = 0; op < o->ops; op++) {
		uint64_t key = prng_below(&rng, db->keys);
		uint64_t index_page = key / db->keys_per_index_page;
		uint64_t record_page = key / KEYS_PER_RECORD_PAGE;

		refs_add(refs, REFS_ID(INDEX_OBJECT, index_page));
		check_page(db, o, 0, index_page, op, refs, res, start);
		refs_add(refs, REFS_ID(RECORD_OBJECT, record_page));
		check_page(db, o, 1, record_page, op, refs, res, start);
	}
	return clock_now() - start;
}

int main(int argc, char **argv)
{
	struct opts o;
	struct db db = { 0 };
	struct result res;
	struct refs refs;
	char *index_path, *record_path;
	double elapsed = 0;

	err_set_prog(NAME);
	parse(argc, argv, &o);
	db_layout(&db, o.size);
	index_path = datafile_path(o.dir, INDEX_FILE);
	record_path = datafile_path(o.dir, RECORD_FILE);
	result_init(&res, NAME);
	result_str(&res, "phase", phase_name(o.phase));
	result_str(&res, "mode", o.mode == MODE_MMAP ? "mmap" : "pread");
	result_bool(&res, "mlock_index", o.mlock_index);
	result_u64(&res, "size_bytes", o.size);
	result_u64(&res, "index_pages", db.index_pages);
	result_u64(&res, "record_pages", db.record_pages);
	result_u64(&res, "keys", db.keys);
	result_u64(&res, "ops", o.ops);
	result_u64(&res, "seed", o.seed);

	/* Before setup, so a bad --emit-refs path costs nothing. */
	refs_none(&refs);
	if ((o.phase & PHASE_RUN) && o.refs_path &&
	    refs_open(&refs, o.refs_path, LAB_PAGE_SIZE))
		die(EXIT_LAB_USAGE, "cannot create --emit-refs file %s: %s", o.refs_path,
		    strerror(errno));
	if (o.phase & PHASE_SETUP) {
		double t = clock_now();
		int err = datafile_create(index_path, db.index_pages, o.seed, INDEX_OBJECT);

		if (err)
			die(EXIT_LAB_RUNTIME, "cannot create %s: %s", index_path, strerror(err));
		err = datafile_create(record_path, db.record_pages, o.seed, RECORD_OBJECT);
		if (err)
			die(EXIT_LAB_RUNTIME, "cannot create %s: %s", record_path, strerror(err));
		result_num(&res, "setup_s", clock_now() - t);
	}
	if (o.phase & PHASE_RUN) {
		db.index_fd = datafile_open(index_path, db.index_pages, o.seed, INDEX_OBJECT, O_RDONLY);
		db.record_fd = datafile_open(record_path, db.record_pages, o.seed, RECORD_OBJECT, O_RDONLY);
		if (o.phase == PHASE_ALL) {
			int err = datafile_uncache(db.index_fd, 0);

			if (!err)
				err = datafile_uncache(db.record_fd, !o.keep_caches);
			if (err)
				die(EXIT_LAB_RUNTIME, "cannot drop the database from the page cache: %s",
				    strerror(err));
		}
		elapsed = run(&o, &db, &refs, &res);
		result_num(&res, "ops_per_s", elapsed > 0 ? (double)o.ops / elapsed : 0);
		result_num(&res, "index_resident_fraction",
			   resident_fraction(db.index_fd, db.index_pages, "index"));
		result_num(&res, "record_resident_fraction",
			   resident_fraction(db.record_fd, db.record_pages, "record"));
		if (refs_active(&refs)) {
			result_u64(&res, "refs", refs.count);
			if (refs_commit(&refs))
				die(EXIT_LAB_RUNTIME, "cannot write --emit-refs file %s: %s",
				    o.refs_path, strerror(errno));
		}
	}
	result_bool(&res, "verified", 1);
	result_num(&res, "elapsed_s", elapsed);
	free(db.buf);
	free(index_path);
	free(record_path);
	return result_print(&res) ? EXIT_LAB_RUNTIME : 0;
}
