// SPDX-License-Identifier: GPL-2.0
/*
 * lab-exec: run a command and record what it cost.
 *
 *   lab-exec [--cgroup DIR] RUSAGE_FILE COMMAND [ARG...]
 *
 * Writes one JSON object to RUSAGE_FILE: the wall time measured on the
 * monotonic clock around the child, its major and minor faults, how it
 * ended and, with --cgroup, the cgroup the command ran in as the kernel
 * reports it (/proc/PID/cgroup, read by this parent once the command has
 * started). With --cgroup the child joins the cgroup v2 directory DIR
 * (writes itself into DIR/cgroup.procs) before it executes COMMAND, so
 * everything the command allocates is charged there.
 *
 * Exits with the child's status (128 + signal when it was killed), so the
 * guest's init sees the workload's own exit code; 2 for bad usage, 125
 * when lab-exec itself fails (fork, cgroup, wait, the file), 127 when the
 * command cannot be executed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EXIT_USAGE 2
#define EXIT_SELF 125
#define EXIT_EXEC 127

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* In the child: join DIR, then exec; a failure goes up the pipe. */
static _Noreturn void child(const char *cgroup, int report, char **argv)
{
	char msg[512];
	int code = EXIT_EXEC;

	if (cgroup) {
		char path[4096];
		int fd;

		snprintf(path, sizeof(path), "%s/cgroup.procs", cgroup);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, "0\n", 2) != 2) {
			snprintf(msg, sizeof(msg), "lab-exec: cannot join cgroup %s: %s", cgroup,
				 strerror(errno));
			code = EXIT_SELF;
			goto fail;
		}
		close(fd);
	}
	execv(argv[0], argv);
	snprintf(msg, sizeof(msg), "lab-exec: %s: %s", argv[0], strerror(errno));
fail:
	if (write(report, msg, strlen(msg)) < 0)
		fprintf(stderr, "%s\n", msg);
	_exit(code);
}

/* The cgroup of process PID, "0::/path" without the "0::" and newline. */
static int read_cgroup(pid_t pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	if (strncmp(buf, "0::", 3) == 0)
		memmove(buf, buf + 3, strlen(buf + 3) + 1);
	return 0;
}

/* A JSON string of S (cgroup paths: printable, but escape what must be). */
static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
	fputc('"', f);
}

int main(int argc, char **argv)
{
	const char *cgroup = NULL, *out;
	char cg[512] = "", msg[512];
	struct rusage ru;
	double start, wall;
	int status, code, pipefd[2];
	ssize_t n;
	pid_t pid;
	FILE *f;

	if (argc >= 3 && strcmp(argv[1], "--cgroup") == 0) {
		cgroup = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: lab-exec [--cgroup DIR] RUSAGE_FILE COMMAND [ARG...]\n");
		return EXIT_USAGE;
	}
	out = argv[1];
	if (pipe2(pipefd, O_CLOEXEC)) {
		fprintf(stderr, "lab-exec: pipe: %s\n", strerror(errno));
		return EXIT_SELF;
	}
	start = now_s();
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "lab-exec: fork: %s\n", strerror(errno));
		return EXIT_SELF;
	}
	if (pid == 0) {
		close(pipefd[0]);
		child(cgroup, pipefd[1], argv + 2);
	}
	close(pipefd[1]);
	/* EOF: the command runs (the pipe closed on exec). */
	while ((n = read(pipefd[0], msg, sizeof(msg) - 1)) < 0 && errno == EINTR)
		;
	close(pipefd[0]);
	if (n > 0) {
		msg[n] = 0;
		fprintf(stderr, "%s\n", msg);
	} else if (cgroup && read_cgroup(pid, cg, sizeof(cg))) {
		fprintf(stderr, "lab-exec: cannot read /proc/%d/cgroup: %s\n", (int)pid,
			strerror(errno));
	}
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "lab-exec: wait4: %s\n", strerror(errno));
			return EXIT_SELF;
		}
	}
	wall = now_s() - start;
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

	f = fopen(out, "w");
	if (!f) {
		fprintf(stderr, "lab-exec: %s: %s\n", out, strerror(errno));
		return EXIT_SELF;
	}
	fprintf(f, "{\"wall_s\":%.6f,\"majflt\":%ld,\"minflt\":%ld,"
		"\"exit_code\":%d,\"signal\":%d,\"cgroup\":",
		wall, ru.ru_majflt, ru.ru_minflt,
		WIFEXITED(status) ? WEXITSTATUS(status) : -1,
		WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	if (cgroup && cg[0])
		json_str(f, cg);
	else
		fputs("null", f);
	fputs("}\n", f);
	if (fclose(f) != 0) {
		fprintf(stderr, "lab-exec: %s: %s\n", out, strerror(errno));
		return EXIT_SELF;
	}
	return code;
}
