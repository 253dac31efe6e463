/* labstat: compare page-replacement policies across repeated lab runs. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../trace/atomic_output.h"
#include "compare.h"
#include "metric.h"
#include "report.h"
#include "runs.h"

#define MAX_METRICS 32

static const char *const default_metrics[] = {
	"wall_s",
	"majflt",
	"vmstat.pswpin",
	"vmstat.pswpout",
	"refaults=vmstat.workingset_refault_anon+vmstat.workingset_refault_file",
};

static void usage(FILE *out)
{
	fputs("usage: labstat [--metric [LABEL=]PATH[+PATH...]]... [--baseline POLICY]\n"
	      "               [--format text|markdown|csv|csv-long] [--csv-long] [-o FILE]\n"
	      "               RESULT...\n"
	      "RESULT is a result.json, a run directory, or a results directory of runs.\n"
	      "Groups completed runs by (workload, policy) and prints, per metric, the\n"
	      "mean ± 95% CI, the ratio to the baseline (default lru) and Welch's t-test.\n"
	      "Default metrics: wall_s majflt vmstat.pswpin vmstat.pswpout and\n"
	      "refaults=vmstat.workingset_refault_anon+vmstat.workingset_refault_file.\n",
	      out);
}

struct options {
	const char *metric_specs[MAX_METRICS];
	int nmetrics;
	const char *baseline;
	enum report_format format;
	const char *output;
};

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "metric", required_argument, NULL, 'm' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "csv-long", no_argument, NULL, 'L' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	memset(o, 0, sizeof(*o));
	o->baseline = "lru";
	o->format = REPORT_TEXT;
	while ((opt = getopt_long(argc, argv, "m:b:f:o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			if (o->nmetrics == MAX_METRICS) {
				fprintf(stderr, "labstat: at most %d metrics\n", MAX_METRICS);
				return 2;
			}
			o->metric_specs[o->nmetrics++] = optarg;
			break;
		case 'b':
			o->baseline = optarg;
			break;
		case 'f':
			if (report_format_parse(optarg, &o->format) != 0) {
				fprintf(stderr, "labstat: unknown format '%s' (text, markdown, csv, csv-long)\n",
					optarg);
				return 2;
			}
			break;
		case 'L':
			o->format = REPORT_CSV_LONG;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			fprintf(stderr, "labstat: bad arguments (see labstat --help)\n");
			return 2;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "labstat: no result given (see labstat --help)\n");
		return 2;
	}
	if (o->nmetrics == 0) {
		for (size_t i = 0; i < sizeof(default_metrics) / sizeof(*default_metrics); i++)
			o->metric_specs[o->nmetrics++] = default_metrics[i];
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct options o;
	struct metric metrics[MAX_METRICS];
	struct run_set runs = { 0 };
	struct atomic_output out;
	int nparsed = 0, status = 1;

	int rc = parse_options(argc, argv, &o);
	if (rc != 0)
		return rc;
	for (; nparsed < o.nmetrics; nparsed++)
		if (metric_parse(&metrics[nparsed], o.metric_specs[nparsed]) != 0) {
			status = 2;
			goto done;
		}
	for (int i = optind; i < argc; i++)
		if (run_set_add_path(&runs, argv[i]) != 0)
			goto done;
	if (runs.count == 0) {
		fprintf(stderr, "labstat: no completed runs (exit ok) found\n");
		goto done;
	}
	if (atomic_output_open(&out, o.output) != 0) {
		fprintf(stderr, "labstat: %s: %s\n", o.output, strerror(errno));
		goto done;
	}
	for (int m = 0; m < nparsed; m++) {
		struct comparison c;
		if (comparison_build(&c, &runs, &metrics[m], o.baseline) != 0) {
			atomic_output_abort(&out);
			goto done;
		}
		report_write(out.stream, o.format, &c, m == 0);
		comparison_free(&c);
	}
	if (atomic_output_commit(&out) != 0) {
		fprintf(stderr, "labstat: writing %s: %s\n", o.output ? o.output : "stdout",
			strerror(errno));
		goto done;
	}
	status = 0;
done:
	for (int m = 0; m < nparsed; m++)
		metric_free(&metrics[m]);
	run_set_free(&runs);
	return status;
}
