/*
 * Running the real applications the workloads drive (fio, redis, ripgrep,
 * PostgreSQL): fork, optionally as another user and in another directory,
 * exec, wait, and read what the program prints.
 */
#ifndef LAB_SPAWN_H
#define LAB_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

struct spawn {
	const char *user; /* run as this user of /etc/passwd (NULL: as we are) */
	const char *dir;  /* chdir here first (NULL: stay) */
	int out_fd;       /* the child's stdout (-1: ours) */
	int err_fd;       /* the child's stderr (-1: ours; 0 is never one) */
};

/* user's uid and gid from /etc/passwd (read here: a static binary's
 * getpwnam() needs glibc's NSS modules at run time, which the guest lacks).
 * 0, or -1 when there is no such user. */
int spawn_user_ids(const char *user, uid_t *uid, gid_t *gid);

/* Start argv[0] (a path) with argv. The pid, or exit 1 with one line when
 * the user is unknown or fork fails. A child that cannot exec exits 127. */
pid_t spawn_start(const char *const *argv, const struct spawn *how);

/* As spawn_start, with program run under the name argv[0] (redis-tools'
 * binary is the server by its name). */
pid_t spawn_program(const char *program, const char *const *argv, const struct spawn *how);

/* Wait for pid: its exit status, or 128 + the signal that ended it. */
int spawn_wait(pid_t pid);

/* End a server child on a failure path: sig, then SIGKILL if it has not
 * exited within seconds; reaped either way. */
void spawn_stop(pid_t pid, int sig, double seconds);

/* Run argv to its end with its stdout in out (at most cap - 1 bytes,
 * NUL-terminated; more is an error). Its exit status as spawn_wait's; a
 * program that could not be run is one error line and exit 1. */
int spawn_capture(const char *const *argv, const struct spawn *how, char *out, size_t cap);

#endif
