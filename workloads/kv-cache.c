/*
 * kv-cache: Debian's redis-server as a cache whose heap is larger than RAM.
 * The server's values live in anonymous memory that jemalloc manages, so
 * reclaim swaps a real allocator's pages, not a loop's: the case
 * cyclic-anon only imitates.
 *
 * The run starts a redis-server on a Unix socket in --dir (no persistence,
 * no eviction), fills it with --size bytes of values (keys YCSB's "user"
 * names of 0..N-1, each value --value-size bytes derived from the seed and
 * its key), then times --ops GETs of keys drawn from YCSB's scrambled
 * zipfian (or uniform) and checks every value it gets back, word by word:
 * a lost, stale or corrupted value fails the run with exit 3. The server is
 * stopped (SHUTDOWN NOSAVE) at the end and killed on any failure.
 */
#include "args.h"
#include "clock.h"
#include "driver.h"
#include "err.h"
#include "hist.h"
#include "prng.h"
#include "resp.h"
#include "spawn.h"
#include "stamp.h"
#include "ycsbgen.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define SOCKET_NAME "kv-cache.sock"
#define LOG_NAME "kv-cache-server.log"
#define FILL_BATCH 64
#define VALUE_MAX (1u << 20)
#define START_TIMEOUT_S 300.0

struct kv_cache {
	const char *redis; /* the redis-server program */
	uint64_t value_size, keys, ops;
	enum ycsb_dist dist;
	char *socket_path, *log_path;
	pid_t server;
	struct resp conn;
	unsigned char *value, *expect;
	struct hist lat; /* GET latency, ns */
	double fill_s;
	uint64_t server_rss_kib, server_swap_kib;
};

/* The server of this process, for the exit path (die() exits). */
static pid_t server_pid;

/* SIGTERM (redis shuts down on it), then after 10 s SIGKILL. */
static void kill_server(void)
{
	if (server_pid > 0)
		spawn_stop(server_pid, SIGTERM, 10);
	server_pid = 0;
}

static const struct wl_option options[] = {
	wl_opt_own("value-size", 'v'),
	wl_opt_positive("ops", struct kv_cache, ops),
	wl_opt_own("distribution", 'd'),
	wl_opt_program("redis", struct kv_cache, redis, "the redis-server program to run"),
	{ 0 },
};

/* --value-size (a multiple of 8 that fits the buffers) and --distribution
 * (its names are not enum ycsb_dist's order). */
static int option(struct wl *w, int c, const char *arg)
{
	struct kv_cache *kv = w->priv;

	switch (c) {
	case 'v':
		kv->value_size = arg_positive("--value-size", arg);
		if (kv->value_size % 8 || kv->value_size > VALUE_MAX)
			die(EXIT_LAB_USAGE, "bad --value-size value '%s': a multiple of 8, up to %u",
			    arg, VALUE_MAX);
		return 1;
	case 'd':
		kv->dist = arg_choice("--distribution", arg,
				      (const char *const[]){ "zipfian", "uniform", NULL }) ?
				   YCSB_UNIFORM :
				   YCSB_ZIPFIAN;
		return 1;
	default:
		return 0;
	}
}

static void prepare(struct wl *w)
{
	struct kv_cache *kv = w->priv;

	kv->keys = w->size / kv->value_size;
	if (!kv->keys)
		die(EXIT_LAB_USAGE, "bad --size: smaller than one --value-size value");
	if (!kv->ops)
		kv->ops = 2 * kv->keys;
	kv->socket_path = wl_path(w, SOCKET_NAME);
	kv->log_path = wl_path(w, LOG_NAME);
	result_str(&w->res, "distribution", kv->dist == YCSB_UNIFORM ? "uniform" : "zipfian");
	result_u64(&w->res, "size_bytes", w->size);
	result_u64(&w->res, "keys", kv->keys);
	result_u64(&w->res, "value_size", kv->value_size);
	result_u64(&w->res, "ops", kv->ops);
	result_u64(&w->res, "seed", w->seed);
}

/* Key k's value: stamp words of the key's stamp, as the pages of the other
 * workloads hold them. */
static void make_value(const struct wl *w, uint64_t k, unsigned char *buf, uint64_t size)
{
	uint64_t key = stamp_key(w->seed, 0, k, 0);

	for (uint64_t i = 0; i < size / 8; i++) {
		uint64_t v = stamp_word(key, (size_t)i);

		memcpy(buf + i * 8, &v, 8);
	}
}

static void start_server(struct kv_cache *kv)
{
	double deadline = clock_now() + START_TIMEOUT_S;
	int status;

	/* argv[0] makes redis-tools' binary the server. Its log goes into a
	 * file: stdout carries the RESULT line, stderr the one error line. */
	const char *argv[] = { "redis-server", "--port", "0", "--unixsocket", kv->socket_path,
			       "--unixsocketperm", "700", "--save", "", "--appendonly", "no",
			       "--maxmemory", "0", "--databases", "1", "--daemonize", "no",
			       "--loglevel", "warning", "--logfile", kv->log_path, NULL };

	unlink(kv->socket_path);
	kv->server = server_pid = spawn_program(kv->redis, argv, NULL);
	while (resp_connect(&kv->conn, kv->socket_path)) {
		pid_t done = waitpid(kv->server, &status, WNOHANG);

		if (done == kv->server) {
			server_pid = 0;
			if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
				die(EXIT_LAB_RUNTIME, "cannot run %s (is redis installed?)", kv->redis);
			die(EXIT_LAB_RUNTIME, "%s exited before it listened (status %d)", kv->redis,
			    status);
		}
		if (clock_now() > deadline)
			die(EXIT_LAB_RUNTIME, "%s did not listen on %s within %.0f s", kv->redis,
			    kv->socket_path, START_TIMEOUT_S);
		usleep(20000);
	}
}

static void server_failed(struct kv_cache *kv, const char *doing)
{
	double deadline = clock_now() + 5;
	pid_t done;
	int status;

	/* Did the server die (the OOM killer), or did it answer wrongly? A
	 * server that closed the connection gets 5 s to be reaped. */
	while ((done = waitpid(kv->server, &status, WNOHANG)) == 0 && clock_now() < deadline)
		usleep(10000);
	if (done == kv->server) {
		server_pid = 0;
		if (WIFSIGNALED(status))
			die(EXIT_LAB_RUNTIME, "redis-server was killed by signal %d while %s",
			    WTERMSIG(status), doing);
		die(EXIT_LAB_RUNTIME, "redis-server exited with status %d while %s",
		    WEXITSTATUS(status), doing);
	}
	die(EXIT_LAB_RUNTIME, "redis while %s: %s", doing, kv->conn.error);
}

static void fill(struct wl *w, struct kv_cache *kv)
{
	double t0 = clock_now();

	for (uint64_t first = 0; first < kv->keys; first += FILL_BATCH) {
		uint64_t n = kv->keys - first < FILL_BATCH ? kv->keys - first : FILL_BATCH;

		for (uint64_t k = first; k < first + n; k++) {
			char name[YCSB_KEY_MAX];
			const void *argv[3] = { "SET", name, kv->value };
			size_t len[3] = { 3, ycsb_key_name(k, name), kv->value_size };

			make_value(w, k, kv->value, kv->value_size);
			if (resp_queue(&kv->conn, 3, argv, len))
				server_failed(kv, "filling");
		}
		if (resp_flush(&kv->conn))
			server_failed(kv, "filling");
		for (uint64_t k = first; k < first + n; k++)
			if (resp_read_status(&kv->conn, "OK"))
				server_failed(kv, "filling");
	}
	kv->fill_s = clock_now() - t0;
}

static void check_value(struct wl *w, struct kv_cache *kv, uint64_t op, uint64_t k, int64_t got)
{
	char where[96];

	if (got == -3) {
		snprintf(where, sizeof(where), "op %llu key %llu too long", (unsigned long long)op,
			 (unsigned long long)k);
		wl_verify_failed(w, where, "GET %llu of key %llu: %s, %llu were stored",
				 (unsigned long long)op, (unsigned long long)k, kv->conn.error,
				 (unsigned long long)kv->value_size);
	}
	if (got == -2) {
		snprintf(where, sizeof(where), "op %llu key %llu missing", (unsigned long long)op,
			 (unsigned long long)k);
		wl_verify_failed(w, where, "GET %llu of key %llu: the server has no such key",
				 (unsigned long long)op, (unsigned long long)k);
	}
	if ((uint64_t)got != kv->value_size) {
		snprintf(where, sizeof(where), "op %llu key %llu length %lld",
			 (unsigned long long)op, (unsigned long long)k, (long long)got);
		wl_verify_failed(w, where, "GET %llu of key %llu: %lld bytes, %llu were stored",
				 (unsigned long long)op, (unsigned long long)k, (long long)got,
				 (unsigned long long)kv->value_size);
	}
	make_value(w, k, kv->expect, kv->value_size);
	for (uint64_t off = 0; off < kv->value_size; off += 8) {
		if (!memcmp(kv->value + off, kv->expect + off, 8))
			continue;
		snprintf(where, sizeof(where), "op %llu key %llu offset %llu",
			 (unsigned long long)op, (unsigned long long)k, (unsigned long long)off);
		wl_verify_failed(w, where,
				 "GET %llu of key %llu differs from the stored value at byte %llu",
				 (unsigned long long)op, (unsigned long long)k,
				 (unsigned long long)off);
	}
}

/* VmRSS and VmSwap of the server, in KiB (0 when unreadable). */
static void read_server_memory(struct kv_cache *kv)
{
	char path[64], line[256];
	unsigned long long v;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/status", (long)kv->server);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "VmRSS: %llu kB", &v) == 1)
			kv->server_rss_kib = v;
		else if (sscanf(line, "VmSwap: %llu kB", &v) == 1)
			kv->server_swap_kib = v;
	}
	fclose(f);
}

static void stop_server(struct kv_cache *kv)
{
	const void *argv[2] = { "SHUTDOWN", "NOSAVE" };
	size_t len[2] = { 8, 6 };
	int status;

	/* The server closes the connection instead of answering. */
	if (resp_queue(&kv->conn, 2, argv, len) || resp_flush(&kv->conn))
		server_failed(kv, "shutting down");
	resp_close(&kv->conn);
	if (waitpid(kv->server, &status, 0) != kv->server)
		die(EXIT_LAB_RUNTIME, "cannot wait for redis-server: %s", strerror(errno));
	server_pid = 0;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		die(EXIT_LAB_RUNTIME, "redis-server ended with status %d after SHUTDOWN", status);
	unlink(kv->socket_path);
}

static double run(struct wl *w)
{
	struct kv_cache *kv = w->priv;
	struct ycsb_keys keys;
	struct prng rng;
	double elapsed;

	kv->value = malloc(kv->value_size);
	kv->expect = malloc(kv->value_size);
	if (!kv->value || !kv->expect)
		die(EXIT_LAB_RUNTIME, "out of memory");
	atexit(kill_server);
	start_server(kv);
	fill(w, kv);
	prng_seed(&rng, w->seed);
	ycsb_keys_init(&keys, kv->dist, kv->keys, kv->keys - 1, 0);
	hist_reset(&kv->lat);
	wl_timer_start(w);
	for (uint64_t op = 0; op < kv->ops; op++) {
		uint64_t k = ycsb_keys_next(&keys, &rng);
		char name[YCSB_KEY_MAX];
		const void *argv[2] = { "GET", name };
		size_t len[2] = { 3, ycsb_key_name(k, name) };
		double t0 = clock_now();
		int64_t got;

		if (resp_queue(&kv->conn, 2, argv, len) || resp_flush(&kv->conn))
			server_failed(kv, "reading");
		got = resp_read_bulk(&kv->conn, kv->value, kv->value_size);
		if (got == -1)
			server_failed(kv, "reading");
		hist_add(&kv->lat, (uint64_t)((clock_now() - t0) * 1e9));
		check_value(w, kv, op, k, got);
	}
	elapsed = wl_timer_elapsed(w);
	read_server_memory(kv);
	stop_server(kv);
	return elapsed;
}

static void report(struct wl *w, double elapsed)
{
	struct kv_cache *kv = w->priv;

	result_rate(&w->res, "ops_per_s", kv->ops, elapsed);
	hist_report(&kv->lat, "", 1e3, &w->res);
	result_num(&w->res, "max_us", (double)kv->lat.max / 1e3);
	result_num(&w->res, "fill_s", kv->fill_s);
	result_u64(&w->res, "server_rss_kib", kv->server_rss_kib);
	result_u64(&w->res, "server_swap_kib", kv->server_swap_kib);
}

static const struct wl_spec spec = {
	.name = "kv-cache",
	.about = "Debian's redis-server filled with more values than RAM holds, read\n"
		 "by a zipfian GET client that checks every value it gets back.\n",
	.help = "  --size SIZE       the values stored: bytes with K/M/G/T suffix or N%\n"
		"                    of MemTotal (default 150%)\n"
		"  --dir DIR         the server's Unix socket and log, " SOCKET_NAME "\n"
		"                    and " LOG_NAME " (default /data)\n"
		"  --value-size N    bytes a value, a multiple of 8 (default 4000: with\n"
		"                    redis's header, one 4 KiB jemalloc class)\n"
		"  --ops N           GETs of the timed phase (default 2 x the keys)\n"
		"  --distribution D  zipfian (YCSB's scrambled zipfian, default) or uniform\n"
		"  --redis PROGRAM   the server to run (default /usr/bin/redis-server)\n"
		"  --seed N          the values' stamps and the key sequence (default 1)\n",
	.objects = NULL,
	.notes = "The fill (untimed, fill_s) and the GETs run in the run phase: the\n"
		 "data lives in the server process. RESULT: ops_per_s, p50/p99/p999_us\n"
		 "and max_us of a GET, server_rss_kib and server_swap_kib at the end.\n"
		 "No --emit-refs: the server, not this program, touches the values.\n",
	.flags = WL_SIZE,
	.min_pages = 1,
	.options = options,
	.option = option,
	.prepare = prepare,
	.run = run,
	.report = report,
};

int main(int argc, char **argv)
{
	struct kv_cache kv = { .redis = "/usr/bin/redis-server", .value_size = 4000,
			       .dist = YCSB_ZIPFIAN, .server = -1 };
	int rc;

	/* A server that died is found by the failed write and said in one
	 * line (server_failed), not by a silent SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	rc = wl_main(argc, argv, &spec, &kv);

	free(kv.socket_path);
	free(kv.log_path);
	free(kv.value);
	free(kv.expect);
	return rc;
}
