#include "ycsb.h"

#include "args.h"
#include "datafile.h"
#include "err.h"
#include "iotap.h"
#include "meminfo.h"
#include "prng.h"
#include "resident.h"
#include "stamp.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_OPS 100000
#define DEFAULT_CACHE (1u << 20)
#define MIN_RECORDS 100
#define STATE_MAGIC "labycsb1"
#define RECORD_MAGIC "YCSB"
#define HEADER_BYTES 16
#define STR(x) #x
#define XSTR(x) STR(x)

static const struct mix {
	char name;
	double p[OP_KINDS]; /* read, update, insert, scan, read-modify-write */
	enum ycsb_dist dist;
} mixes[] = {
	{ 'a', { 0.50, 0.50, 0, 0, 0 }, YCSB_ZIPFIAN },
	{ 'b', { 0.95, 0.05, 0, 0, 0 }, YCSB_ZIPFIAN },
	{ 'c', { 1.00, 0, 0, 0, 0 }, YCSB_ZIPFIAN },
	{ 'd', { 0.95, 0, 0.05, 0, 0 }, YCSB_LATEST },
	{ 'e', { 0, 0, 0.05, 0.95, 0 }, YCSB_ZIPFIAN },
	{ 'f', { 0.50, 0, 0, 0, 0.50 }, YCSB_ZIPFIAN },
	/* GET-SCAN (cache_ext, SOSP'25): C's zipfian reads while threads
	 * stream the whole database (stream() below); not YCSB's own. */
	{ 'g', { 1.00, 0, 0, 0, 0 }, YCSB_ZIPFIAN },
};

static const char *const op_names[OP_KINDS] = { "read", "update", "insert", "scan", "rmw" };
static const char *const dist_names[] = { "uniform", "zipfian", "latest", NULL };

static const struct mix *mix_of(char name)
{
	return &mixes[name - 'a'];
}

static enum ycsb_dist dist_of(const struct ycsb *y, char mix)
{
	return y->dist >= 0 ? (enum ycsb_dist)y->dist : mix_of(mix)->dist;
}

/* The distribution of every mix of the sequence, or "per-mix". */
static const char *dist_name(const struct ycsb *y)
{
	for (const char *m = y->mixes; *m; m++)
		if (dist_of(y, *m) != dist_of(y, y->mixes[0]))
			return "per-mix";
	return dist_names[dist_of(y, y->mixes[0])];
}

/* --- records ------------------------------------------------------------ */

static uint64_t record_base(uint64_t seed, uint64_t keynum, uint32_t version)
{
	return mix64(mix64(mix64(seed ^ 0x5943534252454344ULL) ^ keynum) ^ version);
}

void ycsb_record(const struct ycsb *y, uint64_t keynum, uint32_t version, unsigned char *buf)
{
	uint64_t base = record_base(y->w->seed, keynum, version);

	memcpy(buf, RECORD_MAGIC, 4);
	for (int i = 0; i < 8; i++)
		buf[4 + i] = (unsigned char)(keynum >> (8 * i));
	for (int i = 0; i < 4; i++)
		buf[12 + i] = (unsigned char)(version >> (8 * i));
	for (size_t j = 0; j < (YCSB_RECORD_BYTES - HEADER_BYTES) / 8; j++) {
		uint64_t v = mix64(base + j);

		for (int i = 0; i < 8; i++)
			buf[HEADER_BYTES + 8 * j + (size_t)i] = (unsigned char)(v >> (8 * i));
	}
}

static uint64_t le(const unsigned char *p, int bytes)
{
	uint64_t v = 0;

	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static _Noreturn void mismatch(struct ycsb *y, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static _Noreturn void mismatch(struct ycsb *y, const char *key, const char *fmt, ...)
{
	char detail[160], where[224];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	snprintf(where, sizeof(where), "key %s: %s", key, detail);
	wl_verify_failed(y->w, where, "verification failed at key %s: %s", key, detail);
}

_Noreturn void ycsb_corrupt(struct ycsb *y, const char *what, const char *detail)
{
	mismatch(y, what, "the engine reports damaged data: %s", detail);
}

/*
 * Check a record read under key. keynum: the key number asked for, or
 * UINT64_MAX for a scanned record (then the header names it, and the key
 * must be that number's). Returns the key number.
 */
static uint64_t check_record(struct ycsb *y, const char *key, uint64_t keynum,
			     const unsigned char *value, size_t len)
{
	unsigned char want[YCSB_RECORD_BYTES];
	char name[YCSB_KEY_MAX];
	uint64_t got_key;
	uint32_t version;

	if (len != YCSB_RECORD_BYTES)
		mismatch(y, key, "value of %zu bytes, expected %u", len, YCSB_RECORD_BYTES);
	if (memcmp(value, RECORD_MAGIC, 4))
		mismatch(y, key, "no record header (byte 0)");
	got_key = le(value + 4, 8);
	if (keynum == UINT64_MAX) {
		if (got_key >= y->keys)
			mismatch(y, key, "holds key number %llu, beyond the %llu keys",
				 (unsigned long long)got_key, (unsigned long long)y->keys);
		ycsb_key_name(got_key, name);
		if (strcmp(name, key))
			mismatch(y, key, "holds the record of %s (key number %llu)", name,
				 (unsigned long long)got_key);
		keynum = got_key;
	} else if (got_key != keynum) {
		mismatch(y, key, "holds key number %llu, expected %llu",
			 (unsigned long long)got_key, (unsigned long long)keynum);
	}
	version = (uint32_t)le(value + 12, 4);
	if (version != y->versions[keynum])
		mismatch(y, key, "version %u, expected %u (a lost or stale write)", version,
			 y->versions[keynum]);
	ycsb_record(y, keynum, version, want);
	for (size_t i = HEADER_BYTES; i < YCSB_RECORD_BYTES; i++)
		if (value[i] != want[i])
			mismatch(y, key, "byte %zu differs (key number %llu, version %u)", i,
				 (unsigned long long)keynum, version);
	return keynum;
}

void ycsb_scanned(struct ycsb *y, const char *key, size_t klen, const unsigned char *value,
		  size_t len)
{
	char k[YCSB_KEY_MAX];

	if (klen >= sizeof(k))
		mismatch(y, "(scan)", "a key of %zu bytes", klen);
	memcpy(k, key, klen);
	k[klen] = 0;
	if (y->scan_first ? strcmp(k, y->last_key) < 0 : strcmp(k, y->last_key) <= 0)
		mismatch(y, k, "scan out of order: after %s", y->last_key);
	check_record(y, k, UINT64_MAX, value, len);
	memcpy(y->last_key, k, klen + 1);
	y->scan_first = 0;
	y->scanned++;
}

/* --- versions, persisted between phases ---------------------------------- */

static void versions_reserve(struct ycsb *y, uint64_t n)
{
	uint32_t *v;
	uint64_t cap;

	if (n <= y->versions_cap)
		return;
	cap = n > 2 * y->versions_cap ? n : 2 * y->versions_cap;
	v = realloc(y->versions, cap * sizeof(*v));
	if (!v)
		die(EXIT_LAB_RUNTIME, "out of memory for %llu record versions",
		    (unsigned long long)cap);
	memset(v + y->versions_cap, 0, (cap - y->versions_cap) * sizeof(*v));
	y->versions = v;
	y->versions_cap = cap;
}

static void state_line(const struct ycsb *y, int clean, char *buf, size_t len)
{
	snprintf(buf, len, STATE_MAGIC " engine=%s seed=%llu records=%llu keys=%llu clean=%d\n",
		 y->eng->name, (unsigned long long)y->w->seed, (unsigned long long)y->records,
		 (unsigned long long)y->keys, clean);
}

static void state_write(struct ycsb *y, int clean)
{
	char line[160], *tmp = malloc(strlen(y->state_path) + 32);
	unsigned char *buf = malloc(y->keys * 4 + 1);
	FILE *f;
	int err = 0;

	if (!tmp || !buf)
		die(EXIT_LAB_RUNTIME, "out of memory");
	sprintf(tmp, "%s.tmp.%ld", y->state_path, (long)getpid());
	state_line(y, clean, line, sizeof(line));
	for (uint64_t k = 0; k < y->keys; k++)
		for (int i = 0; i < 4; i++)
			buf[4 * k + (uint64_t)i] = (unsigned char)(y->versions[k] >> (8 * i));
	f = fopen(tmp, "wb");
	if (!f)
		die(EXIT_LAB_RUNTIME, "cannot create %s: %s", tmp, strerror(errno));
	if (fputs(line, f) < 0 || fwrite(buf, 4, y->keys, f) != y->keys || fflush(f) ||
	    fsync(fileno(f)))
		err = errno ? errno : EIO;
	if (fclose(f) && !err)
		err = errno;
	if (!err && rename(tmp, y->state_path))
		err = errno;
	if (err) {
		unlink(tmp);
		die(EXIT_LAB_RUNTIME, "cannot write %s: %s", y->state_path, strerror(err));
	}
	free(tmp);
	free(buf);
}

static void state_read(struct ycsb *y)
{
	char line[160], want[160];
	unsigned long long seed, records, keys;
	unsigned char *buf;
	int clean;
	char engine[32];
	FILE *f = fopen(y->state_path, "rb");

	if (!f)
		die(EXIT_LAB_RUNTIME, "cannot open %s: %s (run --phase setup first)", y->state_path,
		    strerror(errno));
	if (!fgets(line, sizeof(line), f) ||
	    sscanf(line, STATE_MAGIC " engine=%31s seed=%llu records=%llu keys=%llu clean=%d",
		   engine, &seed, &records, &keys, &clean) != 5)
		die(EXIT_LAB_RUNTIME, "%s is not a " STATE_MAGIC " state file (run --phase setup)",
		    y->state_path);
	y->keys = keys;
	state_line(y, 1, want, sizeof(want));
	line[strcspn(line, "\n")] = 0;
	want[strcspn(want, "\n")] = 0;
	if (strcmp(engine, y->eng->name) || seed != y->w->seed || records != y->records)
		die(EXIT_LAB_RUNTIME,
		    "%s was set up as '%s' but this run needs '%s' (run --phase setup with the same options)",
		    y->state_path, line, want);
	if (!clean)
		die(EXIT_LAB_RUNTIME,
		    "%s: the previous run did not finish, so the records' versions are unknown (run --phase setup again)",
		    y->state_path);
	versions_reserve(y, keys + 1);
	buf = malloc(keys * 4 + 1);
	if (!buf)
		die(EXIT_LAB_RUNTIME, "out of memory");
	if (fread(buf, 4, keys, f) != keys)
		die(EXIT_LAB_RUNTIME, "%s is truncated (run --phase setup again)", y->state_path);
	for (uint64_t k = 0; k < keys; k++)
		y->versions[k] = (uint32_t)le(buf + 4 * k, 4);
	free(buf);
	fclose(f);
}

/* --- options and phases --------------------------------------------------- */

#define MAX_SCAN_THREADS 16

static const struct wl_option options[] = {
	wl_opt_own("workload", 'w'),
	wl_opt_positive("ops", struct ycsb, ops),
	wl_opt_choice("distribution", struct ycsb, dist, dist_names),
	wl_opt_string("cache", struct ycsb, cache_arg),
	wl_opt_range("scan-threads", struct ycsb, scan_threads, MAX_SCAN_THREADS),
	{ 0 },
};

/* --workload: a mix, or a sequence of them, each mix once. */
static int option(struct wl *w, int c, const char *arg)
{
	struct ycsb *y = w->priv;

	if (c != 'w')
		return 0;
	if (!*arg || strlen(arg) >= sizeof(y->mixes) || strspn(arg, "abcdefg") != strlen(arg))
		die(EXIT_LAB_USAGE,
		    "bad --workload value '%s': expected a mix a..g, or a sequence of them (e.g. abcfde)",
		    arg);
	for (const char *m = arg; *m; m++)
		if (strchr(m + 1, *m))
			die(EXIT_LAB_USAGE, "bad --workload value '%s': mix %c twice", arg, *m);
	strcpy(y->mixes, arg);
	return 1;
}

static char *join(const char *dir, const char *name, const char *suffix)
{
	size_t len = strlen(dir) + strlen(name) + strlen(suffix) + 2;
	char *p = malloc(len);

	if (!p)
		die(EXIT_LAB_RUNTIME, "out of memory");
	snprintf(p, len, "%s/%s%s", dir, name, suffix);
	return p;
}

static void prepare(struct wl *w)
{
	struct ycsb *y = w->priv;

	y->w = w;
	if (y->cache_arg)
		y->cache_bytes = arg_size("--cache", y->cache_arg, meminfo_total());
	y->records = w->size / y->eng->record_bytes;
	if (y->records < MIN_RECORDS)
		die(EXIT_LAB_USAGE, "bad --size value '%s': fewer than %d records of %llu bytes",
		    w->size_arg, MIN_RECORDS, (unsigned long long)y->eng->record_bytes);
	if (strchr(y->mixes, 'g')) {
		if (!y->eng->concurrent_reads)
			die(EXIT_LAB_USAGE, "bad --workload value '%s': mix g needs an engine that "
			    "reads from two threads at once (leveldb), not %s", y->mixes, y->eng->name);
		if (w->refs_path)
			die(EXIT_LAB_USAGE, "--emit-refs with mix g: its threads make no one "
			    "reference string");
		result_u64(&w->res, "scan_threads", y->scan_threads);
	}
	result_str(&w->res, "engine", y->eng->name);
	result_str(&w->res, "mix", y->mixes);
	result_str(&w->res, "distribution", dist_name(y));
	result_u64(&w->res, "size_bytes", w->size);
	result_u64(&w->res, "records", y->records);
	result_u64(&w->res, "record_bytes", YCSB_RECORD_BYTES);
	result_u64(&w->res, "ops", y->ops);
	result_u64(&w->res, "cache_bytes", y->cache_bytes);
	result_u64(&w->res, "seed", w->seed);
}

/* The database's paths in --dir, absolute as SQLite makes every path it
 * opens (the I/O tap matches them); once, by the first phase that runs,
 * since prepare must not look at --dir (--check-only). */
static void locate(struct ycsb *y)
{
	char name[64], *dir;

	if (y->db_path)
		return;
	dir = realpath(y->w->dir, NULL);
	if (!dir)
		die(EXIT_LAB_USAGE, "bad --dir value '%s': %s", y->w->dir, strerror(errno));
	snprintf(name, sizeof(name), "ycsb-%s", y->eng->name);
	y->db_path = join(dir, name, "");
	y->state_path = join(dir, name, ".state");
	free(dir);
	iotap_init(y->db_path, y->w->readahead);
}

static void remove_tree(const char *path)
{
	int err = datafile_remove_tree(path);

	if (err)
		die(EXIT_LAB_RUNTIME, "cannot remove %s: %s", path, strerror(err));
}

static char *building; /* the temporary database directory of a setup */

static void remove_building(void)
{
	if (building)
		datafile_remove_tree(building);
}

static int by_key_name(const void *a, const void *b)
{
	char ka[YCSB_KEY_MAX], kb[YCSB_KEY_MAX];

	ycsb_key_name(*(const uint64_t *)a, ka);
	ycsb_key_name(*(const uint64_t *)b, kb);
	return strcmp(ka, kb);
}

/* Setup: load the records into a new database under a temporary name,
 * then replace the old one and write the versions (all 0). */
static void setup(struct wl *w)
{
	struct ycsb *y = w->priv;
	uint64_t *order;
	char *tmp;

	locate(y);
	order = malloc(y->records * sizeof(*order));
	tmp = malloc(strlen(y->db_path) + 32);
	if (!order || !tmp)
		die(EXIT_LAB_RUNTIME, "out of memory");
	sprintf(tmp, "%s.tmp.%ld", y->db_path, (long)getpid());
	building = tmp;
	atexit(remove_building);
	if (mkdir(tmp, 0755))
		die(EXIT_LAB_RUNTIME, "cannot create %s: %s", tmp, strerror(errno));
	for (uint64_t k = 0; k < y->records; k++)
		order[k] = k;
	if (y->eng->load_sorted)
		qsort(order, y->records, sizeof(*order), by_key_name);
	y->eng->open(y, tmp, 1);
	y->eng->load(y, y->records, order);
	y->eng->close(y);
	free(order);
	unlink(y->state_path);
	remove_tree(y->db_path);
	if (rename(tmp, y->db_path))
		die(EXIT_LAB_RUNTIME, "cannot rename %s to %s: %s", tmp, y->db_path, strerror(errno));
	building = NULL;
	free(tmp);
	y->keys = y->records;
	versions_reserve(y, y->keys);
	memset(y->versions, 0, y->keys * sizeof(*y->versions));
	state_write(y, 1);
}

/* Every regular file of the database: fn(y, path, is_data). */
static void each_file(struct ycsb *y, void (*fn)(struct ycsb *y, const char *path, int data))
{
	DIR *d = opendir(y->db_path);
	struct dirent *e;
	size_t suffix = strlen(y->eng->data_suffix);

	if (!d)
		die(EXIT_LAB_RUNTIME, "cannot open %s: %s (run --phase setup first)", y->db_path,
		    strerror(errno));
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char *path;
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		path = join(y->db_path, e->d_name, "");
		if (!stat(path, &st) && S_ISREG(st.st_mode))
			fn(y, path, len > suffix && !strcmp(e->d_name + len - suffix,
							    y->eng->data_suffix));
		free(path);
	}
	closedir(d);
}

static void track(struct ycsb *y, const char *path, int data)
{
	int fd = open(path, O_RDONLY);

	(void)data;
	if (fd < 0)
		die(EXIT_LAB_RUNTIME, "cannot open %s: %s", path, strerror(errno));
	wl_track_fd(y->w, fd, path);
}

static void open_data(struct wl *w)
{
	struct ycsb *y = w->priv;

	locate(y);
	state_read(y);
	state_write(y, 0);
	/* The reference string covers the engine from open to close, as the
	 * kernel's counts of the run phase do (SQLite reads its first pages
	 * and checkpoints at close; LevelDB replays its manifest and log). */
	iotap_record(&w->refs);
	y->eng->open(y, y->db_path, 0);
	/* Our own fds on the files, for --phase all's cache dropping. */
	if (w->phase == PHASE_ALL)
		each_file(y, track);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void read_record(struct ycsb *y, uint64_t keynum)
{
	unsigned char value[YCSB_RECORD_BYTES + 1];
	char key[YCSB_KEY_MAX];
	size_t klen = ycsb_key_name(keynum, key), len;

	if (!y->eng->get(y, key, klen, value, &len))
		mismatch(y, key, "missing (key number %llu)", (unsigned long long)keynum);
	check_record(y, key, keynum, value, len);
}

static void write_record(struct ycsb *y, uint64_t keynum, int insert)
{
	unsigned char value[YCSB_RECORD_BYTES];
	char key[YCSB_KEY_MAX];
	size_t klen = ycsb_key_name(keynum, key);

	ycsb_record(y, keynum, y->versions[keynum], value);
	y->eng->put(y, key, klen, value, insert);
}

static enum ycsb_op choose(const struct mix *m, struct prng *rng)
{
	double u = prng_unit(rng);

	for (int op = 0; op < OP_KINDS; op++) {
		if (u < m->p[op])
			return (enum ycsb_op)op;
		u -= m->p[op];
	}
	for (int op = OP_KINDS - 1; op > 0; op--)
		if (m->p[op] > 0)
			return (enum ycsb_op)op;
	return OP_READ;
}

/* --- mix g: the streams --------------------------------------------------- */

#define STREAM_CHUNK 1000

static atomic_int streams_stop;

struct stream {
	struct ycsb y; /* a copy: its own scan position and counts */
	pthread_t thread;
	uint64_t passes;
};

/*
 * One streaming thread: whole passes over the database in key order, in
 * chunks of STREAM_CHUNK records (each chunk seeks just past the last key
 * read: the key and a NUL byte), every record verified by ycsb_scanned,
 * until the reads are done. A whole pass must see every record.
 */
static void *stream(void *arg)
{
	struct stream *s = arg;
	struct ycsb *y = &s->y;

	while (!atomic_load(&streams_stop)) {
		uint64_t before = y->scanned, got;
		char from[YCSB_KEY_MAX + 1];
		size_t len = strlen(y->last_key);

		memcpy(from, y->last_key, len);
		from[len] = 0; /* "key\0": the first key after it */
		y->eng->scan(y, from, y->scan_first ? 0 : len + 1, STREAM_CHUNK);
		got = y->scanned - before;
		if (got == STREAM_CHUNK)
			continue;
		/* the end of the database: a pass is done */
		if ((y->scanned - y->stream_records) != y->keys)
			mismatch(y, "(stream)", "a whole pass read %llu of the %llu records",
				 (unsigned long long)(y->scanned - y->stream_records),
				 (unsigned long long)y->keys);
		y->stream_records = y->scanned;
		s->passes++;
		y->last_key[0] = 0;
		y->scan_first = 1;
	}
	return NULL;
}

static void streams_start(struct ycsb *y, struct stream *s)
{
	atomic_store(&streams_stop, 0);
	for (unsigned i = 0; i < y->scan_threads; i++) {
		s[i].y = *y;
		s[i].y.scanned = s[i].y.stream_records = 0;
		s[i].y.last_key[0] = 0;
		s[i].y.scan_first = 1;
		s[i].passes = 0;
		if (pthread_create(&s[i].thread, NULL, stream, &s[i]))
			die(EXIT_LAB_RUNTIME, "cannot start a streaming thread");
	}
}

static void streams_stop_all(struct ycsb *y, struct stream *s)
{
	atomic_store(&streams_stop, 1);
	for (unsigned i = 0; i < y->scan_threads; i++) {
		pthread_join(s[i].thread, NULL);
		y->stream_passes += s[i].passes;
		y->stream_records += s[i].y.scanned;
	}
}

/* ops operations of one mix; latencies into the totals and into mix[]. */
static void run_mix(struct ycsb *y, char name, struct prng *rng, struct hist *mix)
{
	const struct mix *m = mix_of(name);
	struct stream streams[MAX_SCAN_THREADS];
	struct ycsb_keys keys;

	/* YCSB sizes the scrambled zipfian for twice the expected inserts. */
	ycsb_keys_init(&keys, dist_of(y, name), y->keys, y->keys - 1,
		       (uint64_t)((double)y->ops * m->p[OP_INSERT] * 2.0));
	if (name == 'g')
		streams_start(y, streams);
	for (uint64_t i = 0; i < y->ops; i++) {
		enum ycsb_op op = choose(m, rng);
		uint64_t start = now_ns(), k;
		char key[YCSB_KEY_MAX];
		size_t klen;

		switch (op) {
		case OP_READ:
			read_record(y, ycsb_keys_next(&keys, rng));
			break;
		case OP_UPDATE:
			k = ycsb_keys_next(&keys, rng);
			y->versions[k]++;
			write_record(y, k, 0);
			break;
		case OP_INSERT:
			k = y->keys;
			versions_reserve(y, k + 1);
			y->versions[k] = 0;
			write_record(y, k, 1);
			y->keys++;
			ycsb_keys_inserted(&keys, k);
			break;
		case OP_SCAN:
			k = ycsb_keys_next(&keys, rng);
			klen = ycsb_key_name(k, key);
			memcpy(y->last_key, key, klen + 1);
			y->scan_first = 1;
			y->eng->scan(y, key, klen, 1 + prng_below(rng, YCSB_MAX_SCAN));
			break;
		default:
			k = ycsb_keys_next(&keys, rng);
			read_record(y, k);
			y->versions[k]++;
			write_record(y, k, 0);
			break;
		}
		start = now_ns() - start;
		hist_add(&y->hist[op], start);
		hist_add(&mix[op], start);
	}
	if (name == 'g')
		streams_stop_all(y, streams);
}

/* workingset_refault_file of /proc/vmstat, or -1 where it cannot be read. */
static double refault_file(void)
{
	FILE *f = fopen("/proc/vmstat", "r");
	char line[128];
	unsigned long long v;
	double found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "workingset_refault_file %llu", &v) == 1)
			found = (double)v;
	fclose(f);
	return found;
}

static long majflt(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? 0 : ru.ru_majflt;
}

/* A sequence's per-mix fields: M_ops_per_s, M_TYPE_p50/p99/p999_us,
 * M_majflt (this process) and M_refault_file (the system's). */
static void report_mix(struct ycsb *y, char name, const struct hist *mix, double seconds,
		       long faults, double refaults)
{
	struct result *res = &y->w->res;
	char key[64];

	snprintf(key, sizeof(key), "%c_ops_per_s", name);
	result_rate(res, key, y->ops, seconds);
	for (int op = 0; op < OP_KINDS; op++) {
		if (!mix[op].count)
			continue;
		snprintf(key, sizeof(key), "%c_%s_", name, op_names[op]);
		hist_report(&mix[op], key, 1e3, res);
	}
	snprintf(key, sizeof(key), "%c_majflt", name);
	result_u64(res, key, (uint64_t)faults);
	if (refaults >= 0) {
		snprintf(key, sizeof(key), "%c_refault_file", name);
		result_u64(res, key, (uint64_t)refaults);
	}
}

static double run(struct wl *w)
{
	struct ycsb *y = w->priv;
	struct prng rng;
	double elapsed;

	for (int op = 0; op < OP_KINDS; op++)
		hist_reset(&y->hist[op]);
	prng_seed(&rng, w->seed ^ 0x7963736272756eULL);
	wl_timer_start(w);
	for (const char *m = y->mixes; *m; m++) {
		static struct hist mix[OP_KINDS];
		double t0 = wl_timer_elapsed(w), r0 = refault_file();
		long f0 = majflt();

		for (int op = 0; op < OP_KINDS; op++)
			hist_reset(&mix[op]);
		run_mix(y, *m, &rng, mix);
		if (y->mixes[1])
			report_mix(y, *m, mix, wl_timer_elapsed(w) - t0, majflt() - f0,
				   r0 >= 0 ? refault_file() - r0 : -1);
	}
	elapsed = wl_timer_elapsed(w);
	y->eng->close(y);
	iotap_record(NULL);
	state_write(y, 1);
	return elapsed;
}

static uint64_t db_bytes, data_pages, data_resident;

static void measure(struct ycsb *y, const char *path, int data)
{
	struct stat st;
	uint64_t resident, total;
	int fd = open(path, O_RDONLY);

	(void)y;
	if (fd < 0 || fstat(fd, &st))
		die(EXIT_LAB_RUNTIME, "cannot open %s: %s", path, strerror(errno));
	db_bytes += (uint64_t)st.st_size;
	if (data) {
		resident_pages(fd, (uint64_t)st.st_size, path, &resident, &total);
		data_pages += total;
		data_resident += resident;
	}
	close(fd);
}

static void report(struct wl *w, double elapsed)
{
	struct ycsb *y = w->priv;
	char key[64];

	db_bytes = data_pages = data_resident = 0;
	each_file(y, measure);
	result_u64(&w->res, "db_bytes", db_bytes);
	result_u64(&w->res, "keys", y->keys);
	result_rate(&w->res, "ops_per_s", y->ops * strlen(y->mixes), elapsed);
	for (int op = 0; op < OP_KINDS; op++) {
		const struct hist *h = &y->hist[op];

		if (!h->count)
			continue;
		snprintf(key, sizeof(key), "%s_ops", op_names[op]);
		result_u64(&w->res, key, h->count);
		snprintf(key, sizeof(key), "%s_", op_names[op]);
		hist_report(h, key, 1e3, &w->res);
	}
	if (y->hist[OP_SCAN].count)
		result_u64(&w->res, "scan_records", y->scanned);
	if (strchr(y->mixes, 'g')) {
		result_u64(&w->res, "stream_passes", y->stream_passes);
		result_u64(&w->res, "stream_records", y->stream_records);
	}
	result_num(&w->res, "record_resident_fraction",
		   data_pages ? (double)data_resident / (double)data_pages : 0);
	{
		char *inodes = iotap_object_inodes();

		if (*inodes)
			result_str(&w->res, "object_inodes", inodes);
		free(inodes);
	}
}

int ycsb_main(int argc, char **argv, const struct ycsb_engine *eng, void *engine,
	      const char *program, const char *mix)
{
	char name[32], objects[64];
	struct ycsb y = {
		.eng = eng, .engine = engine, .dist = -1, .ops = DEFAULT_OPS,
		.cache_bytes = DEFAULT_CACHE, .scan_threads = 1,
	};
	struct wl_spec spec = {
		.name = name,
		.about = eng->about,
		.help = "  --size SIZE       the records' footprint on disk: bytes with K/M/G/T\n"
			"                    or N% of MemTotal (default 150%); records =\n"
			"                    SIZE / the engine's bytes per record (above)\n"
			"  --dir DIR         data directory (default /data); the database is\n"
			"                    DIR/ycsb-ENGINE, its record versions\n"
			"                    DIR/ycsb-ENGINE.state\n"
			"  --workload MIX    YCSB core workload a..f, or g (default: this\n"
			"                    program's, below): a 50% read 50% update,\n"
			"                    b 95/5, c read only, d 95% read 5% insert\n"
			"                    (latest), e 95% scan 5% insert, f 50% read\n"
			"                    50% read-modify-write; g GET-SCAN: c's reads\n"
			"                    while --scan-threads threads stream the whole\n"
			"                    database (engines that read from two threads);\n"
			"                    several (e.g. abcfde) run one after another\n"
			"  --scan-threads N  mix g's streaming threads (default 1, at most 16)\n"
			"  --ops N           operations of each mix (default " XSTR(DEFAULT_OPS) ")\n"
			"  --distribution D  zipfian|latest|uniform: override the mix's keys\n"
			"  --cache SIZE      the engine's own cache (default 1M), small so\n"
			"                    that the kernel's page cache decides\n"
			"  --seed N          key, value and operation seed (default 1); run\n"
			"                    needs setup's\n",
		.objects = objects,
		.notes = "RESULT: ops/s; per operation type count and p50/p99/p99.9 latency in\n"
			 "microseconds (log-linear histogram, <= 3.1% above the true value);\n"
			 "db_bytes; record_resident_fraction (mincore on the data files).\n",
		.flags = WL_SIZE | WL_FILES,
		.min_pages = 1,
		.options = options,
		.option = option,
		.prepare = prepare,
		.setup = setup,
		.open = open_data,
		.run = run,
		.report = report,
	};
	int rc;

	snprintf(y.mixes, sizeof(y.mixes), "%s", mix);
	if (program)
		snprintf(name, sizeof(name), "%s", program);
	else
		snprintf(name, sizeof(name), "ycsb-%s", eng->name);
	snprintf(objects, sizeof(objects), "objects: the database's files");
	rc = wl_main(argc, argv, &spec, &y);
	free(y.versions);
	free(y.db_path);
	free(y.state_path);
	return rc;
}
