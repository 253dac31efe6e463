/* One pass over a trace.dat feeding the timeline and the summary. */
#ifndef SCAN_H
#define SCAN_H

#include <trace-cmd.h>

#include "event_sources.h"
#include "lost.h"
#include "summary.h"
#include "timeline.h"

/* Returns 0, or -1 after printing one error line. */
int scan_trace(struct tracecmd_input *handle, const struct event_sources *sources,
	       struct timeline *timeline, struct summary *summary,
	       struct lost_events *lost, unsigned long long interval_ns);

#endif
