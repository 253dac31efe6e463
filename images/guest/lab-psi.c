// SPDX-License-Identifier: GPL-2.0
/*
 * lab-psi: one snapshot of a pressure-stall file, with the time it was
 * taken, for deltas over the lab's timed phase.
 *
 *   lab-psi FILE        (/proc/pressure/memory, or a cgroup's memory.pressure)
 *
 * Prints three "name value" lines: mono_us (CLOCK_MONOTONIC in
 * microseconds, taken just before FILE is read), some_us and full_us (the
 * "total=" fields of FILE's "some" and "full" lines: microseconds spent
 * stalled since boot). The host subtracts two snapshots: the shares of the
 * interval are some_us / mono_us and full_us / mono_us.
 *
 * Exit: 0 ok, 1 FILE unreadable or not a PSI file, 2 bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
	unsigned long long some = 0, full = 0;
	int have_some = 0, have_full = 0;
	struct timespec ts;
	char line[256];
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: lab-psi FILE\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	f = fopen(argv[1], "r");
	if (!f) {
		fprintf(stderr, "lab-psi: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		const char *t = strstr(line, " total=");

		if (!t)
			continue;
		if (strncmp(line, "some ", 5) == 0)
			have_some = sscanf(t, " total=%llu", &some) == 1;
		else if (strncmp(line, "full ", 5) == 0)
			have_full = sscanf(t, " total=%llu", &full) == 1;
	}
	fclose(f);
	if (!have_some || !have_full) {
		fprintf(stderr, "lab-psi: %s: no \"some\" and \"full\" totals\n", argv[1]);
		return 1;
	}
	printf("mono_us %" PRIu64 "\nsome_us %llu\nfull_us %llu\n",
	       (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000, some, full);
	return 0;
}
