#include "procs.h"

#include "driver.h"
#include "err.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* In a process of --procs: run, hand the seconds back, never return. */
static _Noreturn void proc_main(struct wl *w, double (*run)(struct wl *w))
{
	w->slot->elapsed = run(w);
	fflush(NULL);
	_exit(0);
}

/* Wait for every process; 0, or the first failure's exit status seen. */
static int wait_all(const pid_t *pids, unsigned n, unsigned *failed)
{
	int first = 0;

	for (unsigned i = 0; i < n; i++) {
		int status;

		while (waitpid(pids[i], &status, 0) < 0)
			if (errno != EINTR)
				die(EXIT_LAB_RUNTIME, "cannot wait for process %u: %s", i,
				    strerror(errno));
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			continue;
		if (!first) {
			first = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
			*failed = i;
		}
	}
	return first;
}

double procs_run(struct wl *w, double (*run)(struct wl *w), double *shortest)
{
	unsigned n = w->nprocs, failed = 0;
	size_t bytes = n * sizeof(struct proc_slot);
	struct proc_slot *slots = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
				       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pids[PROCS_MAX];
	double longest = 0;
	int status;

	if (slots == MAP_FAILED)
		die(EXIT_LAB_RUNTIME, "cannot map the processes' slots: %s", strerror(errno));
	memset(slots, 0, bytes);
	/* the parent's clock, for a RESULT line it writes on a failure */
	wl_timer_start(w);
	/* nothing buffered twice */
	fflush(NULL);
	for (unsigned i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			for (unsigned j = 0; j < i; j++)
				kill(pids[j], SIGKILL);
			wait_all(pids, i, &failed);
			die(EXIT_LAB_RUNTIME, "cannot start process %u of %u: %s", i, n,
			    strerror(errno));
		}
		if (!pid) {
			w->proc = i;
			w->slot = &slots[i];
			proc_main(w, run);
		}
		pids[i] = pid;
	}
	status = wait_all(pids, n, &failed);
	if (status == EXIT_LAB_VERIFY && slots[failed].verify_failed) {
		char where[sizeof(slots->verify_error) + 32];

		snprintf(where, sizeof(where), "process %u: %s", failed,
			 slots[failed].verify_error);
		munmap(slots, bytes);
		wl_verify_failed(w, where, "verification failed in process %u of %u", failed, n);
	}
	if (status)
		die(EXIT_LAB_RUNTIME, "process %u of %u failed (%s %d)", failed, n,
		    status > 128 ? "signal" : "exit status", status > 128 ? status - 128 : status);
	*shortest = slots[0].elapsed;
	for (unsigned i = 0; i < n; i++) {
		if (slots[i].elapsed > longest)
			longest = slots[i].elapsed;
		if (slots[i].elapsed < *shortest)
			*shortest = slots[i].elapsed;
	}
	munmap(slots, bytes);
	return longest;
}
