/*
 * pgbench: PostgreSQL 15 (Debian's) under pgbench's TPC-B-like transactions,
 * with small shared_buffers so that the page cache does the caching, the
 * way a database server whose tables outgrow its buffer pool runs.
 *
 * Setup runs initdb (data checksums on: PostgreSQL verifies every page it
 * reads) under a temporary name on the data disk, starts the server on a
 * Unix socket, has pgbench -i load --size bytes of tables (scale = size /
 * 16 MB, pgbench's "about 15 MB per scale unit"), stops it and renames the
 * cluster into place with a .meta record. The run starts the server,
 * counts pgbench_history, runs --clients clients of --transactions each
 * (pgbench -t, --random-seed from --seed; every transaction's latency
 * logged), stops it and checks that the money adds up: the accounts',
 * tellers' and branches' balances and the history's deltas are four sums
 * of one amount, and the history grew by one row per transaction. A lost
 * or damaged page fails a checksum or a sum: exit 3.
 *
 * PostgreSQL refuses to run as root: the programs run as the user
 * "postgres" of /etc/passwd (the guest image has one).
 */
#include "args.h"
#include "clock.h"
#include "datafile.h"
#include "driver.h"
#include "err.h"
#include "hist.h"
#include "spawn.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DB_NAME "pgbench.db"
#define LOG_DIR "pgbench.run" /* the server's socket, pgbench's logs */
#define SCALE_BYTES (16ull << 20)
#define USER "postgres"
#define OUT_MAX (1 << 20)
#define START_TIMEOUT_S 300.0

struct pgb {
	const char *bin; /* PostgreSQL's bin directory */
	uint64_t clients, transactions, scale;
	const char *shared_buffers;
	char *db, *db_tmp, *meta, *logs, *sock, *log;
	int log_fd; /* the PostgreSQL programs' stderr: DIR/pgbench.run/postgres.log */
	pid_t server;
	char *out;
	uint64_t history_before, processed;
	double tps;
	struct hist lat; /* us */
	struct wl *w;
};

static pid_t server_pid;

static const struct wl_option options[] = {
	wl_opt_range("clients", struct pgb, clients, 64),
	wl_opt_positive("transactions", struct pgb, transactions),
	wl_opt_own("shared-buffers", 'b'),
	wl_opt_string("bin", struct pgb, bin),
	{ 0 },
};

/* --shared-buffers: N MB, as PostgreSQL takes it. */
static int option(struct wl *w, int c, const char *arg)
{
	struct pgb *p = w->priv;
	size_t digits;

	if (c != 'b')
		return 0;
	digits = strspn(arg, "0123456789");
	if (digits == 0 || digits + 2 != strlen(arg) || strcmp(arg + digits, "MB"))
		die(EXIT_LAB_USAGE, "bad --shared-buffers value '%s': N MB, e.g. 16MB", arg);
	p->shared_buffers = arg;
	return 1;
}

static char *bin_path(const struct pgb *p, const char *prog)
{
	return datafile_path(p->bin, prog);
}

static void prepare(struct wl *w)
{
	struct pgb *p = w->priv;

	p->w = w;
	p->scale = w->size / SCALE_BYTES;
	if (!p->scale)
		die(EXIT_LAB_USAGE, "bad --size: below one scale unit (16 MB)");
	p->db = wl_path(w, DB_NAME);
	p->db_tmp = datafile_tmp_path(p->db);
	p->meta = wl_path(w, DB_NAME ".meta");
	p->logs = wl_path(w, LOG_DIR);
	p->log = datafile_path(p->logs, "postgres.log");
	p->sock = strdup(p->logs); /* the server's socket, in a directory it owns */
	if (!p->sock)
		die(EXIT_LAB_RUNTIME, "out of memory");
	if (!w->readahead)
		die(EXIT_LAB_USAGE, "--readahead off: PostgreSQL reads the tables, not this program");
	result_u64(&w->res, "size_bytes", w->size);
	result_u64(&w->res, "scale", p->scale);
	result_u64(&w->res, "clients", p->clients);
	result_u64(&w->res, "transactions", p->transactions * p->clients);
	result_str(&w->res, "shared_buffers", p->shared_buffers);
}

/* A directory the server's user owns. */
static void own_dir(const char *path)
{
	uid_t uid;
	gid_t gid;

	if (mkdir(path, 0700) && errno != EEXIST)
		die(EXIT_LAB_RUNTIME, "cannot create %s: %s", path, strerror(errno));
	if (spawn_user_ids(USER, &uid, &gid) || chown(path, uid, gid))
		die(EXIT_LAB_RUNTIME, "cannot give %s to user %s: %s", path, USER, strerror(errno));
}

/* The run directory (the server's socket, pgbench's logs, postgres.log). */
static void open_run_dir(struct pgb *p)
{
	own_dir(p->logs);
	/* one log a process: an earlier run's lines must not decide this one */
	if (p->log_fd <= 0)
		p->log_fd = open(p->log, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
	if (p->log_fd < 0)
		die(EXIT_LAB_RUNTIME, "cannot open %s: %s", p->log, strerror(errno));
}

/* The last line of postgres.log that holds needle (NULL: any), for an
 * error message; "" when there is none. */
static const char *log_line(struct pgb *p, const char *needle)
{
	static char line[256], last[256];
	FILE *f = fopen(p->log, "r");

	last[0] = 0;
	while (f && fgets(line, sizeof(line), f))
		if (line[0] != '\n' && (!needle || strstr(line, needle)))
			snprintf(last, sizeof(last), "%.*s", (int)strcspn(line, "\n"), line);
	if (f)
		fclose(f);
	return last;
}

static const char *last_log_line(struct pgb *p)
{
	return log_line(p, NULL);
}

/* Run a PostgreSQL program as the server's user; its stdout in p->out.
 * A failure is exit 1 naming it (its stderr is ours). */
static void pg_run(struct pgb *p, const char *what, const char *const *argv)
{
	struct spawn how = { .user = USER, .dir = p->logs, .out_fd = -1, .err_fd = p->log_fd };
	int rc = spawn_capture(argv, &how, p->out, OUT_MAX);

	if (!rc)
		return;
	/* PostgreSQL's word for a page that fails its checksum or its header
	 * checks (ERRCODE_DATA_CORRUPTED): damaged data, exit 3. */
	if (*log_line(p, "page verification failed") || *log_line(p, "invalid page in block"))
		wl_verify_failed(p->w, what, "%s: %s", what,
				 *log_line(p, "invalid page in block") ?
					 log_line(p, "invalid page in block") :
					 log_line(p, "page verification failed"));
	die(EXIT_LAB_RUNTIME, "%s failed (exit %d): %s", what, rc, last_log_line(p));
}

static void stop_server(struct pgb *p)
{
	int rc;

	if (p->server <= 0)
		return;
	kill(p->server, SIGINT); /* fast shutdown: a checkpoint, then exit */
	rc = spawn_wait(p->server);
	p->server = server_pid = 0;
	if (rc)
		die(EXIT_LAB_RUNTIME, "the server ended with status %d", rc);
}

/* SIGQUIT: PostgreSQL's immediate shutdown; SIGKILL after 10 s. */
static void kill_server(void)
{
	if (server_pid > 0)
		spawn_stop(server_pid, SIGQUIT, 10);
	server_pid = 0;
}

/* Start postgres on cluster dir, wait until it answers (pg_isready). */
static void start_server(struct wl *w, struct pgb *p, const char *dir)
{
	char *postgres = bin_path(p, "postgres"), *isready = bin_path(p, "pg_isready");
	char sb[64];
	const char *argv[] = { postgres, "-D", dir, "-k", p->sock, "-c", "listen_addresses=",
			       "-c", sb, "-c", "dynamic_shared_memory_type=mmap", "-c", "jit=off",
			       "-c", "synchronous_commit=off", "-c", "max_connections=80",
			       "-c", "logging_collector=off", NULL };
	const char *ready[] = { isready, "-q", "-h", p->sock, "-U", USER, NULL };
	struct spawn how = { .user = USER, .dir = p->logs, .out_fd = p->log_fd, .err_fd = p->log_fd };
	double deadline = clock_now() + START_TIMEOUT_S;

	(void)w;
	snprintf(sb, sizeof(sb), "shared_buffers=%s", p->shared_buffers);
	p->server = server_pid = spawn_start(argv, &how);
	for (;;) {
		int rc = spawn_capture(ready, &(struct spawn){ .user = USER, .out_fd = -1,
							       .err_fd = p->log_fd },
				       p->out, OUT_MAX);

		if (rc == 0)
			break;
		if (waitpid(p->server, &rc, WNOHANG) == p->server) {
			p->server = server_pid = 0;
			die(EXIT_LAB_RUNTIME, "the server exited before it took connections: %s",
			    last_log_line(p));
		}
		if (clock_now() > deadline)
			die(EXIT_LAB_RUNTIME, "the server did not start within %.0f s", START_TIMEOUT_S);
		usleep(100000);
	}
	free(postgres);
	free(isready);
}

/* One row of numbers from psql -Atc SQL, '|'-separated, into v[n]. */
static void query(struct pgb *p, const char *sql, uint64_t *v, int n)
{
	char *psql = bin_path(p, "psql");
	const char *argv[] = { psql, "-X", "-q", "-At", "-h", p->sock, "-U", USER, "-d", "postgres",
			       "-v", "ON_ERROR_STOP=1", "-c", sql, NULL };
	char *s;

	pg_run(p, "psql", argv);
	s = p->out;
	for (int i = 0; i < n; i++) {
		char *end;
		long long x;

		errno = 0;
		x = strtoll(s, &end, 10);
		if (end == s || errno || (*end != (i + 1 < n ? '|' : '\n')))
			die(EXIT_LAB_RUNTIME, "psql answered '%.60s' to: %s", p->out, sql);
		v[i] = (uint64_t)x;
		s = end + 1;
	}
	free(psql);
}

/* The cluster's record: what setup made it for. */
static void meta_line(const struct pgb *p, char *buf, size_t len)
{
	snprintf(buf, len, "labpg1 scale=%llu\n", (unsigned long long)p->scale);
}

static void setup(struct wl *w)
{
	struct pgb *p = w->priv;
	char *initdb = bin_path(p, "initdb"), *pgbench = bin_path(p, "pgbench"), scale[32];
	char line[64];
	const char *init[] = { initdb, "-D", p->db_tmp, "-U", USER, "--locale=C", "-E", "UTF8",
			       "-A", "trust", "--data-checksums", "--no-instructions", NULL };
	const char *load[] = { pgbench, "-i", "-q", "-s", scale, "-h", p->sock, "-U", USER,
			       "postgres", NULL };

	snprintf(scale, sizeof(scale), "%llu", (unsigned long long)p->scale);
	if (datafile_remove_tree(p->db_tmp))
		die(EXIT_LAB_RUNTIME, "cannot remove %s", p->db_tmp);
	open_run_dir(p);
	own_dir(p->db_tmp);
	pg_run(p, "initdb", init);
	start_server(w, p, p->db_tmp);
	pg_run(p, "pgbench -i", load);
	stop_server(p);
	unlink(p->meta);
	if (datafile_remove_tree(p->db) || rename(p->db_tmp, p->db))
		die(EXIT_LAB_RUNTIME, "cannot put %s in place: %s", p->db, strerror(errno));
	meta_line(p, line, sizeof(line));
	datafile_write_record(p->meta, line);
	sync();
	free(initdb);
	free(pgbench);
}

static void open_db(struct wl *w)
{
	struct pgb *p = w->priv;
	char want[64];

	meta_line(p, want, sizeof(want));
	datafile_check_record(p->meta, p->db, want, sizeof(want));
	open_run_dir(p);
	start_server(w, p, p->db);
}

/* pgbench's per-transaction logs (-l): "client tx latency_us script epoch
 * epoch_us" a line, one file a thread, in the log directory. With remove,
 * only delete them (an earlier, failed run's). */
static void read_latencies(struct pgb *p, int remove)
{
	DIR *d = opendir(p->logs);
	struct dirent *e;

	if (!d)
		die(EXIT_LAB_RUNTIME, "cannot open %s: %s", p->logs, strerror(errno));
	hist_reset(&p->lat);
	while ((e = readdir(d))) {
		char *path, line[256];
		FILE *f;

		if (strncmp(e->d_name, "pgbench_log.", 12))
			continue;
		path = datafile_path(p->logs, e->d_name);
		if (remove) {
			unlink(path);
			free(path);
			continue;
		}
		f = fopen(path, "r");
		if (!f)
			die(EXIT_LAB_RUNTIME, "cannot open %s: %s", path, strerror(errno));
		while (fgets(line, sizeof(line), f)) {
			unsigned long long lat;

			if (sscanf(line, "%*d %*d %llu", &lat) != 1)
				die(EXIT_LAB_RUNTIME, "%s: a line that is not pgbench's log", path);
			hist_add(&p->lat, lat);
		}
		fclose(f);
		unlink(path);
		free(path);
	}
	closedir(d);
}

static const char SUMS[] =
	"select (select sum(abalance) from pgbench_accounts), "
	"(select sum(tbalance) from pgbench_tellers), "
	"(select sum(bbalance) from pgbench_branches), "
	"(select coalesce(sum(delta), 0) from pgbench_history), "
	"(select count(*) from pgbench_history)";

static double run(struct wl *w)
{
	struct pgb *p = w->priv;
	char *pgbench = bin_path(p, "pgbench"), clients[32], tx[32], seed[32];
	const char *argv[] = { pgbench, "-n", "-c", clients, "-j", clients, "-t", tx,
			       "--random-seed", seed, "-l", "-h", p->sock, "-U", USER, "postgres",
			       NULL };
	uint64_t s[5];
	double elapsed;
	char *line;

	snprintf(clients, sizeof(clients), "%llu", (unsigned long long)p->clients);
	snprintf(tx, sizeof(tx), "%llu", (unsigned long long)p->transactions);
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)w->seed);
	read_latencies(p, 1);
	query(p, SUMS, s, 5);
	p->history_before = s[4];
	wl_timer_start(w);
	pg_run(p, "pgbench", argv);
	elapsed = wl_timer_elapsed(w);
	line = strstr(p->out, "number of transactions actually processed: ");
	if (!line || sscanf(line, "number of transactions actually processed: %llu",
			    (unsigned long long *)&p->processed) != 1)
		die(EXIT_LAB_RUNTIME, "pgbench printed no transaction count");
	line = strstr(p->out, "tps = ");
	if (!line || sscanf(line, "tps = %lf", &p->tps) != 1)
		die(EXIT_LAB_RUNTIME, "pgbench printed no tps");
	read_latencies(p, 0);
	query(p, SUMS, s, 5);
	stop_server(p);
	if (p->processed != p->clients * p->transactions)
		wl_verify_failed(w, "transactions", "pgbench processed %llu of %llu transactions",
				 (unsigned long long)p->processed,
				 (unsigned long long)(p->clients * p->transactions));
	if (s[0] != s[1] || s[1] != s[2] || s[2] != s[3])
		wl_verify_failed(w, "balances",
				 "the money does not add up: accounts %lld, tellers %lld, branches "
				 "%lld, history %lld",
				 (long long)s[0], (long long)s[1], (long long)s[2], (long long)s[3]);
	if (s[4] - p->history_before != p->processed)
		wl_verify_failed(w, "history", "pgbench_history grew by %llu rows, %llu transactions",
				 (unsigned long long)(s[4] - p->history_before),
				 (unsigned long long)p->processed);
	if (p->lat.count != p->processed)
		die(EXIT_LAB_RUNTIME, "pgbench logged %llu of %llu transactions",
		    (unsigned long long)p->lat.count, (unsigned long long)p->processed);
	free(pgbench);
	return elapsed;
}

static void report(struct wl *w, double elapsed)
{
	struct pgb *p = w->priv;

	result_num(&w->res, "tps", p->tps);
	result_rate(&w->res, "ops_per_s", p->processed, elapsed);
	hist_report(&p->lat, "", 1, &w->res);
	result_num(&w->res, "max_us", (double)p->lat.max);
}

static const struct wl_spec spec = {
	.name = "pgbench",
	.about = "PostgreSQL 15 under pgbench's TPC-B-like transactions, small shared\n"
		 "buffers, tables of 1.5 x RAM; afterwards the balances must add up.\n",
	.help = "  --size SIZE       the tables: bytes with K/M/G/T or N% of MemTotal\n"
		"                    (default 150%); pgbench's scale = SIZE / 16 MB\n"
		"  --dir DIR         data directory (default /data); the cluster " DB_NAME "\n"
		"  --clients N       pgbench's clients and threads (default 4, at most 64)\n"
		"  --transactions N  each client's transactions (default 2500)\n"
		"  --shared-buffers S  PostgreSQL's buffer pool, N MB (default 16MB)\n"
		"  --bin DIR         PostgreSQL's programs (default /usr/lib/postgresql/15/bin)\n"
		"  --seed N          pgbench's --random-seed (default 1)\n",
	.objects = NULL,
	.notes = "RESULT: tps (pgbench's), ops_per_s (transactions over the timed phase),\n"
		 "p50/p99/p999_us and max_us of a transaction (pgbench's log). No\n"
		 "--emit-refs: the server, not this program, reads the tables.\n",
	.flags = WL_SIZE | WL_FILES,
	.min_pages = 1,
	.options = options,
	.option = option,
	.prepare = prepare,
	.setup = setup,
	.open = open_db,
	.run = run,
	.report = report,
};

int main(int argc, char **argv)
{
	struct pgb p = { .bin = "/usr/lib/postgresql/15/bin", .clients = 4, .transactions = 2500,
			 .shared_buffers = "16MB" };
	int rc;

	p.out = malloc(OUT_MAX);
	if (!p.out)
		die(EXIT_LAB_RUNTIME, "out of memory");
	atexit(kill_server);
	rc = wl_main(argc, argv, &spec, &p);
	free(p.db);
	free(p.db_tmp);
	free(p.meta);
	free(p.logs);
	free(p.sock);
	free(p.log);
	free(p.out);
	return rc;
}
