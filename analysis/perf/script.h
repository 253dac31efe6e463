/* Reading `perf script` output: the samples of a perf.data recorded with
 * call chains, printed with
 *
 *   perf script -F comm,tid,cpu,time,period,event,ip,sym,dso
 *
 * Each sample is a header line and its call chain, one frame a line,
 * innermost first, then a blank line:
 *
 *   kswapd0    25 [000]     8.117420:    1003009 cpu-clock:
 *   	ffffffff8114b2c4 shrink_folio_list ([kernel.kallsyms])
 *   	ffffffff8114c7f3 shrink_inactive_list ([kernel.kallsyms])
 *
 * A thread's name may hold spaces, so the header is read from its right
 * end (event, period, time, [cpu], tid; the rest is the name).  A sample
 * with no frames ran in user mode: the lab records kernel call chains
 * only (perf record --kernel-callchains). */
#ifndef SCRIPT_H
#define SCRIPT_H

#include <stdint.h>
#include <stdio.h>

struct perf_sample {
	char *comm;		/* "swapper" for the idle task, as perf names it */
	long tid;		/* -1: a thread perf did not know (":-1") */
	int cpu;
	uint64_t period;	/* of the event: nanoseconds for cpu-clock */
	size_t nframes;
	char **frames;		/* innermost first: symbol, or [dso] when unknown */
};

struct script_reader {
	FILE *in;
	char *line;
	size_t cap;
	unsigned long lineno;
	int have_line;		/* line holds the next sample's header, read ahead */
	struct perf_sample sample;
	size_t frames_cap;
};

void script_open(struct script_reader *r, FILE *in);
void script_close(struct script_reader *r);

/* Reads the next sample into *sample (valid until the next call).
 * Returns 1, 0 at the end of the input, or -1 with a message (naming the
 * line) in err. */
int script_next(struct script_reader *r, const struct perf_sample **sample, char *err,
		size_t errlen);

#endif
