/* trace-timeline: reclaim activity over time from a trace-cmd trace.dat. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd.h>

#include "../sim/sizes.h"
#include "atomic_output.h"
#include "event_sources.h"
#include "scan.h"
#include "summary.h"
#include "timeline.h"
#include "trace_open.h"

struct options {
	double interval_ms;
	bool summary;
	bool lost_json;
	bool quiet;
	const char *output;
	const char *trace;
};

static void usage(FILE *out)
{
	fputs("usage: trace-timeline [--interval MS] [--summary | --lost-json] [--quiet] [-o FILE]\n"
	      "                      TRACE.dat\n"
	      "Reads a trace-cmd trace.dat (vmscan and page_replace events) and writes a\n"
	      "per-interval CSV (default 1000 ms) of pages scanned, taken, reclaimed,\n"
	      "activated, remembered, refaulted, swapped out, the events the ring buffer\n"
	      "lost (lost_events, lost_gaps), run-time policy switches and fallbacks\n"
	      "(switches, fallbacks), plus policy-state columns.\n"
	      "Columns of events absent from the trace are NA (a note on stderr says why).\n"
	      "--summary writes event totals, lost events, duration, events/s and the\n"
	      "batch-size histogram instead; --lost-json the result.json keys trace_events,\n"
	      "trace_lost_events and trace_lost_unknown_gaps (per CPU) as one JSON object.\n"
	      "-o writes FILE whole or not at all (default stdout).\n",
	      out);
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "summary", no_argument, NULL, 's' },
		{ "lost-json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	memset(o, 0, sizeof(*o));
	o->interval_ms = 1000.0;
	while ((opt = getopt_long(argc, argv, "i:sqo:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			if (parse_double(optarg, 0.001, 1e9, &o->interval_ms) != 0) {
				fprintf(stderr, "trace-timeline: bad --interval '%s' (milliseconds, >= 0.001)\n",
					optarg);
				return 2;
			}
			break;
		case 's':
			o->summary = true;
			break;
		case 'j':
			o->lost_json = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			fprintf(stderr, "trace-timeline: bad arguments (see trace-timeline --help)\n");
			return 2;
		}
	}
	if (o->summary && o->lost_json) {
		fprintf(stderr, "trace-timeline: --summary or --lost-json, not both\n");
		return 2;
	}
	if (argc - optind != 1) {
		fprintf(stderr, "trace-timeline: want exactly one trace.dat (see trace-timeline --help)\n");
		return 2;
	}
	o->trace = argv[optind];
	return 0;
}

int main(int argc, char **argv)
{
	struct options o;
	int rc = parse_options(argc, argv, &o);

	if (rc != 0)
		return rc;
	trace_open_init("trace-timeline");
	struct tracecmd_input *handle = trace_open(o.trace);
	if (handle == NULL)
		return 1;
	struct tep_handle *tep = tracecmd_get_tep(handle);
	struct event_sources sources;
	struct summary summary;
	struct lost_events lost;
	struct timeline timeline;
	struct atomic_output out;
	int status = 1;

	if (event_sources_resolve(&sources, tep, !o.quiet && !o.summary && !o.lost_json) != 0) {
		fprintf(stderr, "trace-timeline: out of memory\n");
		tracecmd_close(handle);
		return 1;
	}
	if (summary_init(&summary, tep) != 0) {
		fprintf(stderr, "trace-timeline: out of memory\n");
		goto free_sources;
	}
	if (lost_init(&lost, tep_get_cpus(tep)) != 0 || lost_read_kernel_stats(&lost, handle) != 0) {
		fprintf(stderr, "trace-timeline: out of memory\n");
		summary_free(&summary);
		goto free_sources;
	}
	timeline_init(&timeline, &sources, o.interval_ms / 1000.0);
	if (scan_trace(handle, &sources, &timeline, &summary, &lost,
		       (unsigned long long)(o.interval_ms * 1e6 + 0.5)) != 0)
		goto free_all;
	if (atomic_output_open(&out, o.output) != 0) {
		fprintf(stderr, "trace-timeline: %s: %s\n", o.output, strerror(errno));
		goto free_all;
	}
	if (o.summary)
		summary_write(&summary, tep, &sources, &lost, o.trace, out.stream);
	else if (o.lost_json)
		summary_write_json(&summary, &lost, out.stream);
	else
		timeline_write_csv(&timeline, out.stream);
	if (atomic_output_commit(&out) != 0) {
		fprintf(stderr, "trace-timeline: writing %s: %s\n", o.output ? o.output : "stdout",
			strerror(errno));
		goto free_all;
	}
	status = 0;
free_all:
	timeline_free(&timeline);
	lost_free(&lost);
	summary_free(&summary);
free_sources:
	event_sources_free(&sources);
	tracecmd_close(handle);
	return status;
}
