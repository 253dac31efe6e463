/*
 * The timed phase in N processes (--procs N, driver.h's WL_PROCS): one
 * process cannot keep N CPUs reclaiming. Each process runs the workload's
 * run() on its own share of the data (wl_share()), verifies what it reads
 * and reports its seconds; the timed phase lasts as long as the slowest.
 */
#ifndef LAB_PROCS_H
#define LAB_PROCS_H

#include <stdint.h>

#define PROCS_MAX 64

struct wl;

/* What a process hands back (in memory it shares with the parent). */
struct proc_slot {
	double elapsed;         /* its run()'s seconds */
	int verify_failed;      /* set with verify_error before it exits 3 */
	char verify_error[160]; /* where, as the RESULT line's verify_error */
};

/*
 * Run run(w) in w->nprocs processes (w->proc = 0 .. nprocs - 1, w->slot
 * its own slot). Returns the longest run's seconds and the shortest in
 * *shortest. A process that failed verification: the RESULT line says
 * so, naming the process, and the parent exits 3. A process that failed
 * otherwise, or was killed: the parent exits 1 naming it (its own error
 * is already on stderr).
 */
double procs_run(struct wl *w, double (*run)(struct wl *w), double *shortest);

#endif
