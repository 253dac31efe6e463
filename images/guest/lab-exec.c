// SPDX-License-Identifier: GPL-2.0
/*
 * lab-exec: run a command and record what it cost.
 *
 *   lab-exec RUSAGE_FILE COMMAND [ARG...]
 *
 * Writes one JSON object to RUSAGE_FILE: the wall time measured on the
 * monotonic clock around the child, its major and minor faults and how it
 * ended. Exits with the child's status (128 + signal when it was killed),
 * so the guest's init sees the workload's own exit code.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	double start, wall;
	int status, code;
	pid_t pid;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: lab-exec RUSAGE_FILE COMMAND [ARG...]\n");
		return 2;
	}
	start = now_s();
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "lab-exec: fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		execv(argv[2], argv + 2);
		fprintf(stderr, "lab-exec: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "lab-exec: wait4: %s\n", strerror(errno));
			return 1;
		}
	}
	wall = now_s() - start;
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

	f = fopen(argv[1], "w");
	if (!f) {
		fprintf(stderr, "lab-exec: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	fprintf(f, "{\"wall_s\":%.6f,\"majflt\":%ld,\"minflt\":%ld,"
		"\"exit_code\":%d,\"signal\":%d}\n",
		wall, ru.ru_majflt, ru.ru_minflt,
		WIFEXITED(status) ? WEXITSTATUS(status) : -1,
		WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	if (fclose(f) != 0) {
		fprintf(stderr, "lab-exec: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	return code;
}
