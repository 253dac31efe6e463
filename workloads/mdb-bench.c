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
#include "driver.h"
#include "err.h"
#include "prng.h"
#include "resident.h"
#include "stamp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define INDEX_FILE "mdb-index.dat"
#define RECORD_FILE "mdb-records.dat"
#define RECORDS_PER_INDEX_PAGE 100u
#define KEYS_PER_RECORD_PAGE 2u
#define DEFAULT_OPS 200000
#define INDEX_OBJECT 0u
#define RECORD_OBJECT 1u
#define STR(x) #x
#define XSTR(x) STR(x)

enum mode { MODE_PREAD, MODE_MMAP };

struct mdb {
	uint64_t ops;
	enum mode mode;
	int mlock_index;
	uint64_t index_pages, record_pages, keys, keys_per_index_page;
	char *index_path, *record_path;
	int index_fd, record_fd;
	const unsigned char *index_map, *record_map;
	unsigned char *buf;
};

static const struct wl_option options[] = {
	wl_opt_positive("ops", struct mdb, ops),
	wl_opt_choice("mode", struct mdb, mode, WL_CHOICES("pread", "mmap")),
	wl_opt_flag("mlock-index", struct mdb, mlock_index),
	{ 0 },
};

static void prepare(struct wl *w)
{
	struct mdb *db = w->priv;
	uint64_t pages = w->size / LAB_PAGE_SIZE;

	db->record_pages = pages * RECORDS_PER_INDEX_PAGE / (RECORDS_PER_INDEX_PAGE + 1);
	db->index_pages = pages - db->record_pages;
	db->keys = db->record_pages * KEYS_PER_RECORD_PAGE;
	db->keys_per_index_page = (db->keys + db->index_pages - 1) / db->index_pages;
	wl_procs_at_most(w, db->ops, "the %llu lookups");
	db->index_path = wl_path(w, INDEX_FILE);
	db->record_path = wl_path(w, RECORD_FILE);
	result_str(&w->res, "mode", db->mode == MODE_MMAP ? "mmap" : "pread");
	result_bool(&w->res, "mlock_index", db->mlock_index);
	result_u64(&w->res, "size_bytes", w->size);
	result_u64(&w->res, "index_pages", db->index_pages);
	result_u64(&w->res, "record_pages", db->record_pages);
	result_u64(&w->res, "keys", db->keys);
	result_u64(&w->res, "ops", db->ops);
	result_u64(&w->res, "seed", w->seed);
}

static void setup(struct wl *w)
{
	struct mdb *db = w->priv;

	wl_create_data(w, db->index_path, db->index_pages, INDEX_OBJECT);
	wl_create_data(w, db->record_path, db->record_pages, RECORD_OBJECT);
}

static void open_data(struct wl *w)
{
	struct mdb *db = w->priv;

	db->index_fd = wl_open_data(w, db->index_path, db->index_pages, INDEX_OBJECT, O_RDONLY);
	db->record_fd = wl_open_data(w, db->record_path, db->record_pages, RECORD_OBJECT,
				     O_RDONLY);
}

static const unsigned char *read_page(struct mdb *db, int record, uint64_t page)
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

static void check_page(struct wl *w, int record, uint64_t page, uint64_t op)
{
	struct mdb *db = w->priv;
	unsigned object = record ? RECORD_OBJECT : INDEX_OBJECT;
	const char *what = record ? "record" : "index";
	long bad;
	char where[128];

	wl_ref(w, object, page);
	bad = stamp_mismatch(read_page(db, record, page), stamp_key(w->seed, object, page, 0));
	if (bad < 0)
		return;
	snprintf(where, sizeof(where), "op %llu %s page %llu offset %ld", (unsigned long long)op,
		 what, (unsigned long long)page, bad);
	wl_verify_failed(w, where, "verification failed at op %llu, %s page %llu (byte offset %ld)",
			 (unsigned long long)op, what, (unsigned long long)page, bad);
}

static double run(struct wl *w)
{
	struct mdb *db = w->priv;
	uint64_t first, ops;
	struct prng rng;

	if (db->mode == MODE_MMAP || db->mlock_index)
		db->index_map = wl_map(w, db->index_fd, db->index_pages * LAB_PAGE_SIZE, "index");
	if (db->mode == MODE_MMAP)
		db->record_map = wl_map(w, db->record_fd, db->record_pages * LAB_PAGE_SIZE, "record");
	else if (posix_memalign((void **)&db->buf, LAB_PAGE_SIZE, LAB_PAGE_SIZE))
		die(EXIT_LAB_RUNTIME, "out of memory");
	if (db->mlock_index && mlock(db->index_map, db->index_pages * LAB_PAGE_SIZE))
		die(EXIT_LAB_RUNTIME, "cannot mlock the %llu-page index: %s (raise RLIMIT_MEMLOCK?)",
		    (unsigned long long)db->index_pages, strerror(errno));

	/* this process's lookups, numbered first .. first + ops - 1, from a
	 * key stream of its own (process 0's is the one process's) */
	wl_share(w, db->ops, &first, &ops);
	prng_seed(&rng, w->proc ? mix64(w->seed ^ (uint64_t)w->proc << 32) : w->seed);
	resident_sampler_init(&w->resident, resident_half(ops), w->resident_samples);
	wl_timer_start(w);
	for (uint64_t op = first; op < first + ops; op++) {
		uint64_t key = prng_below(&rng, db->keys);

		if (resident_sample_due_in_run(&w->resident, op - first, ops))
			resident_sample_files(&w->resident, 2,
					      (const int[]){ db->index_fd, db->record_fd },
					      (const uint64_t[]){ db->index_pages * LAB_PAGE_SIZE,
								  db->record_pages * LAB_PAGE_SIZE },
					      "a database file");

		check_page(w, 0, key / db->keys_per_index_page, op);
		check_page(w, 1, key / KEYS_PER_RECORD_PAGE, op);
	}
	return wl_timer_elapsed(w) - w->resident.seconds;
}

static void report(struct wl *w, double elapsed)
{
	struct mdb *db = w->priv;

	result_rate(&w->res, "ops_per_s", db->ops, elapsed);
	result_num(&w->res, "index_resident_fraction",
		   resident_fraction(db->index_fd, db->index_pages * LAB_PAGE_SIZE,
				     "the index file"));
	result_num(&w->res, "record_resident_fraction",
		   resident_fraction(db->record_fd, db->record_pages * LAB_PAGE_SIZE,
				     "the record file"));
}

static const struct wl_spec spec = {
	.name = "mdb-bench",
	.about = "Random key lookups on a file-backed database: each lookup reads the\n"
		 "key's index page, then its record page (the LRU-K paper's indexed\n"
		 "database; index pages are ~100x hotter than record pages).\n",
	.help = "  --size SIZE       index + records: bytes with K/M/G/T suffix or N%\n"
		"                    of MemTotal (default 150%); records get 100/101\n"
		"                    of the pages, the index the rest (1% of records)\n"
		"  --dir DIR         data directory (default /data); files " INDEX_FILE "\n"
		"                    and " RECORD_FILE "\n"
		"  --ops N           lookups, each an index and a record access\n"
		"                    (default " XSTR(DEFAULT_OPS) ")\n"
		"  --mode MODE       pread (default) or mmap (shared read-only maps)\n"
		"  --mlock-index     mmap the index and mlock it before the timed loop\n"
		"                    (index accesses then go through that mapping)\n"
		"  --seed N          key and stamp seed (default 1); run needs setup's\n",
	.objects = "index pages are object 0, record pages object 1",
	.notes = "Reports ops/s and the fraction of index (and record) pages resident in\n"
		 "the page cache at the end (mincore on a mapping of each file). With\n"
		 "--procs N the lookups are shared out, each process drawing its own\n"
		 "keys; ops/s is all of them over the slowest process's seconds.\n",
	.flags = WL_SIZE | WL_FILES | WL_RESIDENT | WL_PROCS,
	.min_pages = RECORDS_PER_INDEX_PAGE + 1,
	.options = options,
	.prepare = prepare,
	.setup = setup,
	.open = open_data,
	.run = run,
	.report = report,
};

int main(int argc, char **argv)
{
	struct mdb db = { .ops = DEFAULT_OPS, .mode = MODE_PREAD };
	int rc = wl_main(argc, argv, &spec, &db);

	free(db.buf);
	free(db.index_path);
	free(db.record_path);
	return rc;
}
