// SPDX-License-Identifier: GPL-2.0
/*
 * lab-reclaim: what reclaim cost the tasks and the machine over the timed
 * phase, the two figures a user feels besides throughput.
 *
 *   lab-reclaim stalls INSTANCE [MARKER]
 *	Read the text of the trace_pipe of a tracefs instance (the directory
 *	INSTANCE) that records vmscan's mm_vmscan_direct_reclaim_begin/_end and
 *	mm_vmscan_memcg_reclaim_begin/_end, until end of file or SIGTERM
 *	(then what is buffered is read too). A task's begin and its next end
 *	are one stall: the time the task waited in direct reclaim, for the
 *	zone's watermark (direct) or its cgroup's limit (memcg). With MARKER,
 *	only the stalls that begin between the instance's trace_marker lines
 *	"MARKER-start" and "MARKER-end" count, so that a caller who reads
 *	/proc/vmstat just before writing the one and just before writing the
 *	other compares the same window: every direct stall counted is one
 *	allocstall of its delta. Ends whose begins came before the window are
 *	then not the window's, and are left out. Prints
 *	"name value" lines: stalls, memcg_stalls (of them), stall_total_us,
 *	stall_p50_us, stall_p99_us, stall_max_us (exact: every stall is
 *	kept), stalls_over_frame (above 8.3 ms, a 120 Hz frame: the reclaim
 *	latency budget phone makers asked for at LSF/MM/BPF 2026), unpaired
 *	(an end without its begin, or a begin still open at the end; with
 *	MARKER, a begin of the window still open at the end), lines
 *	(event lines read) and overrun (events the instance's ring buffer
 *	lost, from INSTANCE/per_cpu/cpuN/stats: the figures are exact when 0).
 *
 *   lab-reclaim kswapd
 *	Print "kswapd_cpu_s S": the user and system CPU time, in seconds, of
 *	every kswapd thread (a comm starting with "kswapd") since it started.
 *	The host subtracts two readings.
 *
 * Exit: 0 ok, 1 INSTANCE unreadable, /proc unreadable or a malformed event
 * line (named), 2 bad usage.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FRAME_US 8300
#define MAX_TASKS 4096

static volatile sig_atomic_t stop;
static int trace_fd = -1;

/* From here on a read of an empty trace_pipe returns at once: a TERM that
 * comes while a buffer is being parsed must not leave the next read
 * waiting for events that are no longer recorded (fcntl is
 * async-signal-safe). */
static void on_term(int sig)
{
	(void)sig;
	stop = 1;
	if (trace_fd >= 0)
		fcntl(trace_fd, F_SETFL, fcntl(trace_fd, F_GETFL) | O_NONBLOCK);
}

struct open_stall {
	long pid;
	uint64_t begin_us;
	int memcg;
	int counted; /* it began in the window */
};

/* Where the reading is against MARKER's window. */
enum window { WINDOW_BEFORE, WINDOW_IN, WINDOW_AFTER };

struct stalls {
	uint64_t *us; /* every stall's length */
	size_t n, cap;
	uint64_t memcg, unpaired, lines;
	struct open_stall open[MAX_TASKS];
	size_t nopen;
	const char *marker; /* NULL: every stall counts */
	enum window window;
};

static int add_stall(struct stalls *s, uint64_t us)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 4096;
		uint64_t *p = realloc(s->us, cap * sizeof(*p));

		if (!p)
			return -1;
		s->us = p;
		s->cap = cap;
	}
	s->us[s->n++] = us;
	return 0;
}

/*
 * One line of trace_pipe's text: "COMM-PID [CPU] FLAGS SECS.USECS: EVENT:
 * ...". COMM may hold spaces and dashes, so the line is read from the
 * event name backwards. Returns 0, or -1 when an event line of ours is
 * malformed; lines of other events are skipped.
 */
static int parse_line(struct stalls *s, char *line)
{
	static const char *const events[] = { "mm_vmscan_direct_reclaim_begin:",
					      "mm_vmscan_direct_reclaim_end:",
					      "mm_vmscan_memcg_reclaim_begin:",
					      "mm_vmscan_memcg_reclaim_end:" };
	unsigned long secs, usecs;
	char *ev = NULL, *ts, *cpu, *dash, *mark;
	int which = -1;
	uint64_t t;
	long pid;

	mark = s->marker ? strstr(line, "tracing_mark_write: ") : NULL;
	if (mark) {
		size_t n = strlen(s->marker);

		mark += strlen("tracing_mark_write: ");
		if (!strncmp(mark, s->marker, n) && !strcmp(mark + n, "-start"))
			s->window = WINDOW_IN;
		else if (!strncmp(mark, s->marker, n) && !strcmp(mark + n, "-end"))
			s->window = WINDOW_AFTER;
		return 0;
	}
	for (int i = 0; i < 4 && which < 0; i++) {
		ev = strstr(line, events[i]);
		if (ev)
			which = i;
	}
	if (which < 0)
		return 0;
	s->lines++;
	/* the timestamp "SECS.USECS:" just before the event */
	if (ev - line < 3 || ev[-1] != ' ' || ev[-2] != ':')
		return -1;
	ev[-2] = 0;
	ts = strrchr(line, ' ');
	if (!ts || sscanf(ts + 1, "%lu.%lu", &secs, &usecs) != 2)
		return -1;
	t = (uint64_t)secs * 1000000 + usecs;
	/* "COMM-PID" ends just before " [CPU]" */
	*ts = 0;
	cpu = strstr(line, " [");
	while (cpu && !isdigit((unsigned char)cpu[2]))
		cpu = strstr(cpu + 1, " [");
	if (!cpu)
		return -1;
	*cpu = 0;
	while (cpu > line && cpu[-1] == ' ')
		*--cpu = 0;
	dash = strrchr(line, '-');
	if (!dash || sscanf(dash + 1, "%ld", &pid) != 1)
		return -1;

	if (which % 2 == 0) { /* a begin */
		int counted = !s->marker || s->window == WINDOW_IN;

		for (size_t i = 0; i < s->nopen; i++)
			if (s->open[i].pid == pid) { /* its end was lost */
				s->unpaired += s->open[i].counted;
				s->open[i] = s->open[--s->nopen];
				break;
			}
		if (s->nopen == MAX_TASKS) {
			s->unpaired += counted;
			return 0;
		}
		s->open[s->nopen++] = (struct open_stall){ pid, t, which == 2, counted };
		return 0;
	}
	for (size_t i = 0; i < s->nopen; i++) {
		struct open_stall o = s->open[i];

		if (o.pid != pid)
			continue;
		s->open[i] = s->open[--s->nopen];
		if (!o.counted)
			return 0;
		if (add_stall(s, t >= o.begin_us ? t - o.begin_us : 0))
			return -1;
		s->memcg += o.memcg;
		return 0;
	}
	/* with a window, an end without its begin began before it */
	s->unpaired += !s->marker;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The nearest-rank percentile p of the sorted stalls. */
static uint64_t percentile(const struct stalls *s, double p)
{
	size_t rank;

	if (!s->n)
		return 0;
	rank = (size_t)(p / 100 * (double)s->n + 0.999999);
	if (rank < 1)
		rank = 1;
	return s->us[(rank > s->n ? s->n : rank) - 1];
}

/* The events the instance's per-CPU ring buffers overwrote unread. */
static int overrun(const char *dir, unsigned long long *lost)
{
	char path[4200], line[256];
	unsigned long long n;

	*lost = 0;
	for (int cpu = 0;; cpu++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", dir, cpu);
		f = fopen(path, "r");
		if (!f)
			return cpu ? 0 : -1;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "overrun: %llu", &n) == 1)
				*lost += n;
		fclose(f);
	}
}

static int stalls(const char *dir, const char *marker)
{
	struct sigaction sa = { .sa_handler = on_term }; /* no SA_RESTART */
	static struct stalls s;
	char buf[65536], line[4096], path[4200];
	unsigned long long lost;
	size_t len = 0;
	uint64_t total = 0, over = 0;
	int fd;

	s.marker = marker;
	snprintf(path, sizeof(path), "%s/trace_pipe", dir);
	fd = trace_fd = open(path, O_RDONLY);

	if (fd < 0) {
		fprintf(stderr, "lab-reclaim: %s: %s\n", path, strerror(errno));
		return 1;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR && stop) {
			/* what the buffer still holds, without waiting */
			fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (len < sizeof(line) - 1)
					line[len++] = buf[i];
				continue;
			}
			line[len] = 0;
			len = 0;
			if (parse_line(&s, line)) {
				fprintf(stderr, "lab-reclaim: %s: a malformed reclaim event line\n",
					path);
				return 1;
			}
		}
	}
	close(fd);
	if (overrun(dir, &lost)) {
		fprintf(stderr, "lab-reclaim: %s/per_cpu/cpu0/stats: %s\n", dir, strerror(errno));
		return 1;
	}
	for (size_t i = 0; i < s.nopen; i++)
		s.unpaired += s.open[i].counted;
	qsort(s.us, s.n, sizeof(*s.us), cmp_u64);
	for (size_t i = 0; i < s.n; i++) {
		total += s.us[i];
		over += s.us[i] > FRAME_US;
	}
	printf("stalls %zu\nmemcg_stalls %llu\nstall_total_us %llu\n", s.n,
	       (unsigned long long)s.memcg, (unsigned long long)total);
	printf("stall_p50_us %llu\nstall_p99_us %llu\nstall_max_us %llu\n",
	       (unsigned long long)percentile(&s, 50), (unsigned long long)percentile(&s, 99),
	       (unsigned long long)(s.n ? s.us[s.n - 1] : 0));
	printf("stalls_over_frame %llu\nunpaired %llu\nlines %llu\noverrun %llu\n",
	       (unsigned long long)over, (unsigned long long)s.unpaired,
	       (unsigned long long)s.lines, lost);
	free(s.us);
	return 0;
}

static int kswapd(void)
{
	unsigned long long ticks = 0;
	long hz = sysconf(_SC_CLK_TCK);
	struct dirent *d;
	DIR *proc = opendir("/proc");

	if (!proc || hz <= 0) {
		fprintf(stderr, "lab-reclaim: /proc: %s\n", strerror(errno));
		return 1;
	}
	while ((d = readdir(proc))) {
		char path[300], stat[1024], *comm_end;
		unsigned long long utime, stime;
		FILE *f;

		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue; /* gone */
		if (!fgets(stat, sizeof(stat), f)) {
			fclose(f);
			continue;
		}
		fclose(f);
		/* "PID (COMM) STATE ..." : utime and stime are fields 14, 15 */
		comm_end = strrchr(stat, ')');
		if (strncmp(strchr(stat, '(') ? strchr(stat, '(') + 1 : "", "kswapd", 6) || !comm_end)
			continue;
		if (sscanf(comm_end + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			   &utime, &stime) != 2) {
			fprintf(stderr, "lab-reclaim: %s: malformed\n", path);
			closedir(proc);
			return 1;
		}
		ticks += utime + stime;
	}
	closedir(proc);
	printf("kswapd_cpu_s %.2f\n", (double)ticks / (double)hz);
	return 0;
}

int main(int argc, char **argv)
{
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "stalls"))
		return stalls(argv[2], argc == 4 ? argv[3] : NULL);
	if (argc == 2 && !strcmp(argv[1], "kswapd"))
		return kswapd();
	fprintf(stderr, "usage: lab-reclaim stalls INSTANCE [MARKER] | lab-reclaim kswapd\n");
	return 2;
}
