#include "rgcount.h"

#include "args.h"
#include "sources.h"
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ARGS 16

static int line_of(char *line, const char *dir, size_t dirlen, rg_count_fn fn, void *ctx)
{
	char *colon = strrchr(line, ':');
	uint64_t count;

	if (!colon || strncmp(line, dir, dirlen) || line[dirlen] != '/' ||
	    parse_u64(colon + 1, &count)) {
		fprintf(stderr, "file-search: rg printed '%.80s', not PATH:COUNT under %s\n", line,
			dir);
		return -1;
	}
	*colon = 0;
	return fn(ctx, line + dirlen + 1, count);
}

int rg_counts(const char *rg, const char *pattern, const char *dir, rg_count_fn fn, void *ctx)
{
	const char *argv[MAX_ARGS];
	size_t n = 0, cap = 0, dirlen = strlen(dir);
	char *line = NULL;
	int pipefd[2], status, rc = 0;
	ssize_t len;
	FILE *out;
	pid_t pid;
	struct spawn how = { .out_fd = -1, .err_fd = -1 };

	argv[n++] = rg;
	for (const char *const *f = sources_rg_flags; *f; f++)
		argv[n++] = *f;
	argv[n++] = "-e";
	argv[n++] = pattern;
	argv[n++] = dir;
	argv[n] = NULL;
	if (pipe(pipefd)) {
		fprintf(stderr, "file-search: cannot create a pipe: %s\n", strerror(errno));
		return -1;
	}
	how.out_fd = pipefd[1];
	fcntl(pipefd[0], F_SETFD, FD_CLOEXEC);
	pid = spawn_start(argv, &how);
	close(pipefd[1]);
	out = fdopen(pipefd[0], "r");
	if (!out) {
		fprintf(stderr, "file-search: cannot read rg's output: %s\n", strerror(errno));
		close(pipefd[0]);
		rc = -1;
	}
	while (out && !rc && (len = getline(&line, &cap, out)) > 0) {
		if (line[len - 1] == '\n')
			line[len - 1] = 0;
		rc = line_of(line, dir, dirlen, fn, ctx);
	}
	if (out)
		fclose(out); /* rg gets EPIPE if we stopped early */
	free(line);
	status = spawn_wait(pid);
	if (rc)
		return rc;
	if (status == 127) {
		fprintf(stderr, "file-search: cannot run %s (is ripgrep installed?)\n", rg);
		return -1;
	}
	if (status > 128) {
		fprintf(stderr, "file-search: rg died of signal %d\n", status - 128);
		return -1;
	}
	return status;
}
