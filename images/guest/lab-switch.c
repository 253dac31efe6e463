// SPDX-License-Identifier: GPL-2.0
/*
 * lab-switch: switch the page replacement policy at given times (the
 * guest side of lab.sh run --switch-at).
 *
 *   lab-switch [--file PATH] OUT T:POLICY...
 *
 * Starts its clock when it starts (init starts it with the timed phase);
 * at T seconds (CLOCK_MONOTONIC) it writes POLICY to PATH (default
 * /sys/kernel/mm/page_replace/policy) and appends one JSON line to OUT:
 *   {"t_s":T,"at_s":WHEN,"to":"POLICY","ok":true|false,"error":null|"why"}
 * with WHEN the time the write returned and "why" the error of open() or
 * write(): a kernel that cannot switch (or does not know POLICY) answers
 * with an error, which is recorded, not fatal. Each line is flushed as it
 * is written, so a kill at the end of the timed phase keeps the switches
 * done so far. T must increase; POLICY is [a-z0-9_-], at most 31.
 *
 * Exit: 0 every switch attempted, 1 OUT cannot be written, 2 bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_SWITCHES 64

struct sw {
	double t;
	char to[32];
};

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int parse(const char *arg, struct sw *s, double prev)
{
	const char *colon = strchr(arg, ':');
	char *end;
	size_t n;

	if (!colon)
		return -1;
	errno = 0;
	s->t = strtod(arg, &end);
	if (errno || end != colon || !(s->t > prev))
		return -1;
	n = strlen(colon + 1);
	if (n == 0 || n >= sizeof(s->to) || strspn(colon + 1, "abcdefghijklmnopqrstuvwxyz0123456789_-") != n)
		return -1;
	memcpy(s->to, colon + 1, n + 1);
	return 0;
}

static void sleep_until(double when)
{
	struct timespec ts = { .tv_sec = (time_t)when };

	ts.tv_nsec = (long)((when - (double)ts.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* Write NAME to PATH; 0 or an errno. */
static int write_policy(const char *path, const char *name)
{
	char buf[40];
	int fd, len, err = 0;

	len = snprintf(buf, sizeof(buf), "%s\n", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	if (write(fd, buf, (size_t)len) != len)
		err = errno ? errno : EIO;
	if (close(fd) && !err)
		err = errno;
	return err;
}

int main(int argc, char **argv)
{
	const char *path = "/sys/kernel/mm/page_replace/policy";
	struct sw sw[MAX_SWITCHES];
	double start = mono(), prev = 0;
	int i, n = 0, first = 2;
	FILE *out;

	if (argc >= 3 && strcmp(argv[1], "--file") == 0) {
		path = argv[2];
		first = 4;
	}
	if (argc < first + 1 || argc - first > MAX_SWITCHES) {
		fprintf(stderr, "usage: lab-switch [--file PATH] OUT T:POLICY... (at most %d)\n",
			MAX_SWITCHES);
		return 2;
	}
	for (i = first; i < argc; i++, n++) {
		if (parse(argv[i], &sw[n], prev)) {
			fprintf(stderr, "lab-switch: bad switch '%s' (T:POLICY, T increasing)\n", argv[i]);
			return 2;
		}
		prev = sw[n].t;
	}
	out = fopen(argv[first - 1], "a");
	if (!out) {
		fprintf(stderr, "lab-switch: %s: %s\n", argv[first - 1], strerror(errno));
		return 1;
	}
	for (i = 0; i < n; i++) {
		int err;

		sleep_until(start + sw[i].t);
		err = write_policy(path, sw[i].to);
		fprintf(out, "{\"t_s\":%g,\"at_s\":%.3f,\"to\":\"%s\",\"ok\":%s,\"error\":",
			sw[i].t, mono() - start, sw[i].to, err ? "false" : "true");
		if (err)
			fprintf(out, "\"%s\"}\n", strerror(err));
		else
			fputs("null}\n", out);
		if (fflush(out)) {
			fprintf(stderr, "lab-switch: %s: %s\n", argv[first - 1], strerror(errno));
			return 1;
		}
	}
	if (fclose(out)) {
		fprintf(stderr, "lab-switch: %s: %s\n", argv[first - 1], strerror(errno));
		return 1;
	}
	return 0;
}
