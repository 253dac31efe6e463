/* Events the kernel's ring buffer lost before trace-cmd read them.
 *
 * The ring buffer runs in overwrite mode: when trace-cmd does not drain a
 * CPU's buffer fast enough, the writer overwrites the oldest unread page
 * and counts the events on it as overrun.  The next page trace-cmd reads
 * carries a "missed events" flag, and the count when the page had room
 * for it; libtracecmd hands both over as tep_record.missed_events of the
 * page's first record (a count, or -1 when the page could not hold it).
 * The lost events happened between the CPU's previous record and that
 * one: a gap.  Events overwritten after trace-cmd's last read carry no
 * flag; the kernel's own per-CPU statistics, which trace-cmd saves at the
 * end of the recording (overrun, dropped events), count them too. */
#ifndef LOST_H
#define LOST_H

#include <stdbool.h>
#include <trace-cmd.h>

struct lost_gap {
	unsigned long long start_ts;	/* the CPU's previous record (or the trace start) */
	unsigned long long end_ts;	/* the first record after the gap */
	long long count;		/* events lost, or -1 when the page held no count */
};

struct lost_cpu {
	unsigned long long lost;	/* events lost in gaps of known size */
	unsigned long long gaps;	/* gaps, of known size or not */
	unsigned long long unknown;	/* gaps whose size is unknown */
	unsigned long long last_ts;	/* the last record seen */
	bool seen;			/* a record was seen */
	unsigned long long kernel;	/* overrun + dropped events, the kernel's count */
};

struct lost_events {
	int ncpus;
	struct lost_cpu *cpu;		/* ncpus of them */
};

/* Returns 0, or -1 when out of memory. */
int lost_init(struct lost_events *l, int ncpus);
void lost_free(struct lost_events *l);

/* Accounts one record of the CPU (records in time order; t0 is the trace's
 * first timestamp).  Returns 1 and fills *gap when events were lost right
 * before it, 0 when not, -1 when out of memory. */
int lost_account(struct lost_events *l, int cpu, const struct tep_record *rec,
		 unsigned long long t0, struct lost_gap *gap);

/* Reads the kernel's per-CPU statistics saved in the trace (if any).
 * Returns 0, or -1 when out of memory. */
int lost_read_kernel_stats(struct lost_events *l, struct tracecmd_input *handle);

/* What the CPU lost: the kernel's count, or the flagged count when that
 * is larger (a trace without statistics). */
unsigned long long lost_of_cpu(const struct lost_cpu *c);

/* lost, gaps, unknown and kernel summed over the CPUs; last_ts holds
 * the sum of lost_of_cpu(). */
struct lost_cpu lost_sum(const struct lost_events *l);

#endif
