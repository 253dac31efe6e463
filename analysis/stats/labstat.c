/* labstat: compare page-replacement policies across repeated lab runs. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../trace/atomic_output.h"
#include "bound.h"
#include "compare.h"
#include "headline.h"
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

/* With the default metrics, when some run was profiled (lab.sh run
 * --trace perf: result.json's perf object), where its CPU went too. */
static const char *const perf_metrics[] = {
	"perf.us_per_reclaimed_page",
	"perf.reclaim_cpu_share",
	"perf.policy_cpu_share",
	"perf.rmap_cpu_share",
	"perf.lock_cpu_share",
	"perf.fault_cpu_share",
	"perf.idle_share",
};

static void usage(FILE *out)
{
	fputs("usage: labstat [--metric [LABEL=]PATH[+PATH...]]... [--baseline POLICY|COLUMN]\n"
	      "               [--format text|markdown|html|csv|csv-long] [--csv-long]\n"
	      "               [--long-csv FILE] [--ignore PARAM]... [--columns PARAM]...\n"
	      "               [--by host] [-o FILE] RESULT...\n"
	      "       labstat --list-runs [--ignore PARAM]... RESULT...\n"
	      "       labstat --headline [--baseline POLICY] [--format F] [--ignore PARAM]... RESULT...\n"
	      "       labstat --bound SIM_DIR [--models LIST]\n"
	      "               [--bound-table runs|summary|both|sweep:SIZE]\n"
	      "               [--format text|markdown|html|csv] [--ignore PARAM]... RESULT...\n"
	      "RESULT is a result.json, a run directory, or a results directory of runs.\n"
	      "Groups completed runs into experiments (every parameter that can change a\n"
	      "count must match: kernel, policy, workload and its options, memory, vCPUs,\n"
	      "accel, trace, sysctls, boot args, cgroup, switch_at) and prints, per metric,\n"
	      "the mean ± 95% CI, the ratio to the baseline (default lru) and Welch's\n"
	      "t-test: rows are workloads with the parameters that differ, columns policies\n"
	      "(with the kernel where it differs). --ignore PARAM merges runs that differ\n"
	      "only in PARAM (e.g. kernel.series_sha); --columns PARAM puts PARAM's values\n"
	      "in the columns beside the policy (e.g. params.boot_args: one column per boot\n"
	      "argument), and --baseline then names a whole column label. Runs of several\n"
	      "hosts are merged, with a warning on stderr when their CPU models or\n"
	      "accelerators differ;\n"
	      "--by host splits the rows by host.name instead. --long-csv also writes the csv-long\n"
	      "table to FILE. --list-runs prints each run's row and column (CSV).\n"
	      "--headline: RESULTS.md's table: each policy on each workload, the pages it read\n"
	      "back (the workload's read_back counter in lab/registry/workloads.tsv) and its\n"
	      "ratios to the baseline: pages (Welch's p), wall time, the workload's rate.\n"
	      "--bound: per run and per experiment, pagesim's misses (SIM_DIR/<run_id>.csv)\n"
	      "beside the kernel's counts (lab.sh bound); sweep:SIZE, lab.sh sweep's row per\n"
	      "experiment at workload size SIZE.\n"
	      "A PATH @rate, @read_back or @p99 is the run's workload's path in that column\n"
	      "of lab/registry/workloads.tsv (its own throughput, the pages it reads back,\n"
	      "its operations' p99 latency).\n"
	      "Default metrics: wall_s majflt vmstat.pswpin vmstat.pswpout and\n"
	      "refaults=vmstat.workingset_refault_anon+vmstat.workingset_refault_file,\n"
	      "and when some run has a perf profile perf.us_per_reclaimed_page and the\n"
	      "perf.*_share of reclaim, policy, rmap, lock, fault and idle.\n"
	      "Exit: 0 ok, 1 error, 2 usage, 3 the table would mix experiments.\n",
	      out);
}

struct options {
	const char *metric_specs[MAX_METRICS];
	int nmetrics;
	const char *baseline;
	enum report_format format;
	const char *output;
	const char *long_csv;
	struct grouping grouping;
	bool list_runs;
	bool headline;
	bool default_metrics;	/* no --metric given */
	struct bound_options bound;
};

#define EX_MIXED 3

/* The parameter an --ignore or --columns names, or -1 after one error
 * line: policy and workload are the table's axes, not parameters to move. */
static int param_option(const char *option, const char *name)
{
	int p = experiment_param_lookup(name);

	if (p < 0 || p == PARAM_POLICY || p == PARAM_WORKLOAD) {
		fprintf(stderr, "labstat: %s %s: %s\n", option, name,
			p < 0 ? "no such parameter (see CONTRACTS.md)"
			      : "policy and workload make the table's axes");
		return -1;
	}
	return p;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "metric", required_argument, NULL, 'm' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "csv-long", no_argument, NULL, 'L' },
		{ "output", required_argument, NULL, 'o' },
		{ "long-csv", required_argument, NULL, 'l' },
		{ "ignore", required_argument, NULL, 'I' },
		{ "columns", required_argument, NULL, 'C' },
		{ "list-runs", no_argument, NULL, 'R' },
		{ "headline", no_argument, NULL, 'H' },
		{ "by", required_argument, NULL, 'Y' },
		{ "bound", required_argument, NULL, 'B' },
		{ "models", required_argument, NULL, 'M' },
		{ "bound-table", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	memset(o, 0, sizeof(*o));
	o->baseline = "lru";
	o->format = REPORT_TEXT;
	o->bound.tables = BOUND_RUNS | BOUND_SUMMARY;
	/* Reps on several machines are one experiment unless --by host. */
	o->grouping.ignore[PARAM_HOST] = true;
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
				fprintf(stderr, "labstat: unknown format '%s' (text, markdown, html, csv, csv-long)\n",
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
		case 'l':
			o->long_csv = optarg;
			break;
		case 'I':
		case 'C': {
			int p = param_option(opt == 'I' ? "--ignore" : "--columns", optarg);
			if (p < 0)
				return 2;
			if (opt == 'I')
				o->grouping.ignore[p] = true;
			else
				o->grouping.column[p] = true;
			break;
		}
		case 'R':
			o->list_runs = true;
			break;
		case 'H':
			o->headline = true;
			break;
		case 'Y':
			if (strcmp(optarg, "host") != 0) {
				fprintf(stderr, "labstat: bad --by '%s' (host)\n", optarg);
				return 2;
			}
			o->grouping.ignore[PARAM_HOST] = false;
			break;
		case 'B':
			o->bound.sim_dir = optarg;
			break;
		case 'M':
			o->bound.models = optarg;
			break;
		case 'T':
			o->bound.tables = strcmp(optarg, "runs") == 0 ? BOUND_RUNS
					: strcmp(optarg, "summary") == 0 ? BOUND_SUMMARY
					: strcmp(optarg, "both") == 0 ? BOUND_RUNS | BOUND_SUMMARY : 0;
			if (strncmp(optarg, "sweep:", 6) == 0 && optarg[6] != '\0') {
				o->bound.tables = BOUND_SWEEP;
				o->bound.sweep_size = optarg + 6;
			}
			if (o->bound.tables == 0) {
				fprintf(stderr, "labstat: bad --bound-table '%s' (runs, summary, both, "
					"sweep:SIZE)\n", optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			fprintf(stderr, "labstat: bad arguments (see labstat --help)\n");
			return 2;
		}
	}
	if (o->bound.sim_dir != NULL && o->format == REPORT_CSV_LONG) {
		fprintf(stderr, "labstat: --bound writes text, markdown, html or csv\n");
		return 2;
	}
	if (o->bound.sim_dir != NULL && o->format == REPORT_CSV &&
	    o->bound.tables == (BOUND_RUNS | BOUND_SUMMARY)) {
		fprintf(stderr, "labstat: --bound --format csv writes one table (--bound-table runs or summary)\n");
		return 2;
	}
	if (o->headline && (o->bound.sim_dir != NULL || o->list_runs || o->nmetrics > 0 ||
			    o->format == REPORT_CSV_LONG)) {
		fprintf(stderr, "labstat: --headline takes no --bound, --list-runs, --metric or csv-long\n");
		return 2;
	}
	if (optind == argc) {
		fprintf(stderr, "labstat: no result given (see labstat --help)\n");
		return 2;
	}
	if (o->nmetrics == 0) {
		o->default_metrics = true;
		for (size_t i = 0; i < sizeof(default_metrics) / sizeof(*default_metrics); i++)
			o->metric_specs[o->nmetrics++] = default_metrics[i];
	}
	return 0;
}

static enum table_format table_format_of(enum report_format f)
{
	return f == REPORT_MARKDOWN ? TABLE_MARKDOWN : f == REPORT_HTML ? TABLE_HTML
	     : f == REPORT_CSV ? TABLE_CSV : TABLE_TEXT;
}

/* --list-runs: each run's directory, row and column, as CSV. */
static int list_runs(FILE *out, const struct run_set *runs, const struct grouping *g)
{
	char **rows, **columns;

	if (grouping_labels(g, runs, &rows, &columns) != 0) {
		fprintf(stderr, "labstat: out of memory\n");
		return -1;
	}
	fputs("row,column,policy,result\n", out);
	for (size_t i = 0; i < runs->count; i++)
		fprintf(out, "%s,%s,%s,%s\n", rows[i], columns[i], runs->runs[i].policy,
			runs->runs[i].path);
	grouping_labels_free(runs, rows, columns);
	return 0;
}

/* The first two different values of one property of the runs (a host's
 * CPU model, an accelerator), each with the host of a run that has it. */
struct two_values {
	const char *value[2], *host[2];
};

static void note_value(struct two_values *t, const char *value, const char *host)
{
	if (value == NULL)
		return;
	for (int i = 0; i < 2; i++) {
		if (t->value[i] == NULL) {
			t->value[i] = value;
			t->host[i] = host;
			return;
		}
		if (strcmp(t->value[i], value) == 0)
			return;
	}
}

/* Warns on stderr when the runs of one table come from hosts with
 * different CPU models (host.cpu_model) or ran on different accelerators:
 * their times are not comparable. Not with --by host, whose rows keep
 * the hosts apart. */
static void warn_mixed_hosts(const struct run_set *runs, const struct grouping *g)
{
	struct two_values model = { 0 }, accel = { 0 };

	if (!g->ignore[PARAM_HOST])
		return;
	for (size_t i = 0; i < runs->count; i++) {
		const struct run *r = &runs->runs[i];
		json_t *host = json_object_get(r->root, "host");
		const char *name = json_string_value(json_object_get(host, "name"));

		if (name == NULL)
			name = "an unrecorded host";
		note_value(&model, json_string_value(json_object_get(host, "cpu_model")), name);
		for (size_t t = 0; t < r->exp.count; t++) {
			const char *v = strchr(r->exp.tokens[t].text, '=');	/* "accel=tcg" */
			if (r->exp.tokens[t].param == PARAM_ACCEL && v != NULL)
				note_value(&accel, v + 1, name);
		}
	}
	if (model.value[1] != NULL)
		fprintf(stderr, "labstat: warning: the runs come from hosts with different CPU models "
			"('%s' on %s, '%s' on %s); their times differ by host: --by host splits them\n",
			model.value[0], model.host[0], model.value[1], model.host[1]);
	if (accel.value[1] != NULL)
		fprintf(stderr, "labstat: warning: the runs used different accelerators "
			"(%s on %s, %s on %s); their times differ by accelerator: --by host splits the hosts\n",
			accel.value[0], accel.host[0], accel.value[1], accel.host[1]);
}

/* The comparison tables of every metric into out (and the long CSV into
 * long_out when given).  Returns 0, 1 or EX_MIXED. */
static int comparisons(FILE *out, FILE *long_out, const struct options *o,
		       const struct run_set *runs, struct metric *metrics, int nmetrics)
{
	for (int m = 0; m < nmetrics; m++) {
		struct comparison c;
		int rc = comparison_build(&c, runs, &o->grouping, &metrics[m], o->baseline);
		if (rc != 0)
			return rc == -2 ? EX_MIXED : 1;
		report_write(out, o->format, &c, m == 0);
		if (long_out != NULL)
			report_write(long_out, REPORT_CSV_LONG, &c, m == 0);
		comparison_free(&c);
	}
	report_trace_losses(out, o->format, runs);
	report_fallbacks(out, o->format, runs);
	if (report_concurrent(out, o->format, runs, &o->grouping) < 0) {
		fprintf(stderr, "labstat: out of memory\n");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct options o;
	struct metric metrics[MAX_METRICS];
	struct run_set runs = { 0 };
	struct atomic_output out, long_out = { 0 };
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
	bool profiled = false;
	for (size_t i = 0; i < runs.count; i++)
		profiled = profiled || json_is_object(json_object_get(runs.runs[i].root, "perf"));
	for (size_t i = 0; o.default_metrics && profiled && i < sizeof(perf_metrics) / sizeof(*perf_metrics);
	     i++, nparsed++)
		if (metric_parse(&metrics[nparsed], perf_metrics[i]) != 0)
			goto done;
	if (atomic_output_open(&out, o.output) != 0) {
		fprintf(stderr, "labstat: %s: %s\n", o.output, strerror(errno));
		goto done;
	}
	if (o.long_csv != NULL && atomic_output_open(&long_out, o.long_csv) != 0) {
		fprintf(stderr, "labstat: %s: %s\n", o.long_csv, strerror(errno));
		atomic_output_abort(&out);
		goto done;
	}
	if (!o.list_runs)
		warn_mixed_hosts(&runs, &o.grouping);
	if (o.list_runs)
		rc = list_runs(out.stream, &runs, &o.grouping) ? 1 : 0;
	else if (o.headline) {
		rc = headline_write(out.stream, table_format_of(o.format), &runs, &o.grouping, o.baseline);
		/* the cells whose time and rate shared the host, as compare lists them */
		if (rc == 0 && report_concurrent(out.stream, o.format, &runs, &o.grouping) < 0)
			rc = 1;
	}
	else if (o.bound.sim_dir != NULL)
		rc = bound_write(out.stream, table_format_of(o.format), &runs, &o.grouping, &o.bound);
	else
		rc = comparisons(out.stream, o.long_csv ? long_out.stream : NULL, &o, &runs, metrics,
				 nparsed);
	if (rc != 0) {
		atomic_output_abort(&out);
		if (o.long_csv != NULL)
			atomic_output_abort(&long_out);
		status = rc == -1 ? 1 : rc;
		goto done;
	}
	if (atomic_output_commit(&out) != 0 ||
	    (o.long_csv != NULL && atomic_output_commit(&long_out) != 0)) {
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
