#include "spawn.h"

#include "clock.h"
#include "err.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int spawn_user_ids(const char *user, uid_t *uid, gid_t *gid)
{
	char line[512];
	size_t len = strlen(user);
	FILE *f = fopen("/etc/passwd", "r");
	int found = 0;

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long u, g;

		if (!strncmp(line, user, len) && line[len] == ':' &&
		    sscanf(line + len, ":%*[^:]:%lu:%lu:", &u, &g) == 2) {
			*uid = (uid_t)u;
			*gid = (gid_t)g;
			found = 1;
		}
	}
	fclose(f);
	return found ? 0 : -1;
}

pid_t spawn_start(const char *const *argv, const struct spawn *how)
{
	return spawn_program(argv[0], argv, how);
}

pid_t spawn_program(const char *program, const char *const *argv, const struct spawn *how)
{
	int as_user = how && how->user;
	uid_t uid = 0;
	gid_t gid = 0;
	pid_t pid;

	if (as_user && spawn_user_ids(how->user, &uid, &gid))
		die(EXIT_LAB_RUNTIME, "no user %s in /etc/passwd to run %s as", how->user, program);
	pid = fork();
	if (pid < 0)
		die(EXIT_LAB_RUNTIME, "cannot fork: %s", strerror(errno));
	if (pid)
		return pid;
	if (how && how->out_fd >= 0 && dup2(how->out_fd, STDOUT_FILENO) < 0)
		_exit(127);
	if (how && how->err_fd > 0 && dup2(how->err_fd, STDERR_FILENO) < 0)
		_exit(127);
	if (as_user && (setgroups(0, NULL) || setgid(gid) || setuid(uid)))
		_exit(127);
	if (how && how->dir && chdir(how->dir))
		_exit(127);
	execv(program, (char *const *)argv);
	_exit(127);
}

int spawn_wait(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die(EXIT_LAB_RUNTIME, "cannot wait for a child: %s", strerror(errno));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void spawn_stop(pid_t pid, int sig, double seconds)
{
	double deadline = clock_now() + seconds;

	kill(pid, sig);
	while (waitpid(pid, NULL, WNOHANG) == 0) {
		if (clock_now() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			return;
		}
		usleep(10000);
	}
}

int spawn_capture(const char *const *argv, const struct spawn *how, char *out, size_t cap)
{
	struct spawn h = how ? *how : (struct spawn){ .out_fd = -1, .err_fd = -1 };
	int pipefd[2], rc;
	size_t len = 0;
	pid_t pid;

	/* close-on-exec: the child keeps only its stdout, dup2'd */
	if (pipe2(pipefd, O_CLOEXEC))
		die(EXIT_LAB_RUNTIME, "cannot create a pipe: %s", strerror(errno));
	h.out_fd = pipefd[1];
	pid = spawn_start(argv, &h);
	close(pipefd[1]);
	for (;;) {
		char extra;
		ssize_t n = len < cap - 1 ? read(pipefd[0], out + len, cap - 1 - len) :
					    read(pipefd[0], &extra, 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (len == cap - 1) {
			kill(pid, SIGKILL);
			spawn_wait(pid);
			die(EXIT_LAB_RUNTIME, "%s printed more than %zu bytes", argv[0], cap - 1);
		}
		len += (size_t)n;
	}
	out[len] = 0;
	close(pipefd[0]);
	rc = spawn_wait(pid);
	if (rc == 127)
		die(EXIT_LAB_RUNTIME, "cannot run %s%s%s", argv[0], h.user ? " as " : "",
		    h.user ? h.user : "");
	return rc;
}
