/* perf-reclaim: a lab run's perf profile, from `perf script` output
 * (script.h), into its folded stacks, its report and result.json's perf
 * metrics (metrics.h; where the CPU went: classify.h).
 *
 *   perf script -F comm,tid,cpu,time,period,event,ip,sym,dso ... |
 *       perf-reclaim [--result result.json] [--folded F] [--report F]
 *                    [--json F] [--top N] [SCRIPT]
 *
 * Every output is written whole or not at all.  Exit: 0, 1 error (I/O,
 * memory), 2 usage, 3 the input is no profile the lab recorded (not perf
 * script's format, no samples, samples of different periods). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../trace/atomic_output.h"
#include "classify.h"
#include "folded.h"
#include "metrics.h"
#include "profile.h"
#include "report.h"
#include "script.h"
#include "top_option.h"

#define EX_INPUT 3
#define MAX_CPU 65536

struct options {
	const char *result, *folded, *report, *json, *input;
	int top;
};

static void usage(FILE *out)
{
	fputs("usage: perf-reclaim [--result RESULT.json] [--folded FILE] [--report FILE]\n"
	      "                    [--json FILE] [--top N] [SCRIPT]\n"
	      "Reads `perf script -F comm,tid,cpu,time,period,event,ip,sym,dso` output of\n"
	      "a perf record -g profile (SCRIPT, or stdin) and writes its folded stacks\n"
	      "(--folded), a report of the top N kernel symbols by self and children\n"
	      "and of where the CPU and reclaim went (--report, N default 40), and\n"
	      "result.json's perf object (--json); --result is the run's result.json,\n"
	      "for the timed phase's length and the pages reclaimed.\n"
	      "Exit: 0 ok, 1 error, 2 usage, 3 not a profile the lab recorded.\n", out);
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "result", required_argument, NULL, 'r' }, { "folded", required_argument, NULL, 'f' },
		{ "report", required_argument, NULL, 'R' }, { "json", required_argument, NULL, 'j' },
		{ "top", required_argument, NULL, 't' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	memset(o, 0, sizeof(*o));
	opterr = 0;	/* one line of our own for a bad option */
	o->top = 40;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'r': o->result = optarg; break;
		case 'f': o->folded = optarg; break;
		case 'R': o->report = optarg; break;
		case 'j': o->json = optarg; break;
		case 't':
			if (top_option_parse("perf-reclaim", optarg, 100000, &o->top) != 0)
				return 2;
			break;
		case 'h': usage(stdout); exit(0);
		default:
			fprintf(stderr, "perf-reclaim: bad option '%s' (see perf-reclaim --help)\n", argv[optind - 1]);
			return 2;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "perf-reclaim: one SCRIPT at most (see perf-reclaim --help)\n");
		return 2;
	}
	o->input = optind < argc ? argv[optind] : NULL;
	return 0;
}

/* Folds every sample of in into stacks; fills s.  Returns 0, 1 or EX_INPUT. */
static int read_samples(FILE *in, const char *name, struct strmap *stacks, struct sampling *s)
{
	struct script_reader r;
	const struct perf_sample *sample;
	bool *seen = calloc(MAX_CPU, sizeof(*seen));
	char err[256];
	int rc, status = 0;

	if (seen == NULL) {
		fprintf(stderr, "perf-reclaim: out of memory\n");
		return 1;
	}
	script_open(&r, in);
	while ((rc = script_next(&r, &sample, err, sizeof(err))) == 1) {
		if (s->period_ns == 0)
			s->period_ns = sample->period;
		if (sample->period != s->period_ns) {
			fprintf(stderr, "perf-reclaim: %s: line %lu: a sample of period %llu among samples of %llu "
				"(not a perf record -c profile)\n", name, r.lineno,
				(unsigned long long)sample->period, (unsigned long long)s->period_ns);
			status = EX_INPUT;
			break;
		}
		if (sample->cpu >= MAX_CPU) {
			fprintf(stderr, "perf-reclaim: %s: line %lu: CPU %d out of range\n", name, r.lineno,
				sample->cpu);
			status = EX_INPUT;
			break;
		}
		if (!seen[sample->cpu]) {
			seen[sample->cpu] = true;
			s->cpus++;
		}
		char *key = folded_key(sample);
		if (key == NULL || strmap_add(stacks, key, 1) != 0) {
			free(key);
			fprintf(stderr, "perf-reclaim: out of memory\n");
			status = 1;
			break;
		}
		free(key);
	}
	if (rc < 0) {
		fprintf(stderr, "perf-reclaim: %s: %s\n", name, err);
		status = strstr(err, "out of memory") || strstr(err, "read error") ? 1 : EX_INPUT;
	}
	if (status == 0 && stacks->len == 0) {
		fprintf(stderr, "perf-reclaim: %s: no samples (was the profile enabled during the timed phase?)\n",
			name);
		status = EX_INPUT;
	}
	script_close(&r);
	free(seen);
	return status;
}

enum output { OUT_FOLDED, OUT_REPORT, OUT_JSON, NOUTPUTS };

int main(int argc, char **argv)
{
	struct options o;
	struct strmap stacks;
	struct sampling s = { 0 };
	struct profile p;
	struct atomic_output out[NOUTPUTS] = { 0 };
	json_t *result = NULL, *metrics = NULL;
	FILE *in = stdin;
	int status = parse_options(argc, argv, &o);

	if (status != 0)
		return status;
	if (classify_load() != 0)
		return 1;
	const char *paths[NOUTPUTS] = { o.folded, o.report, o.json };
	if (o.input != NULL && (in = fopen(o.input, "r")) == NULL) {
		fprintf(stderr, "perf-reclaim: %s: %s\n", o.input, strerror(errno));
		return 1;
	}
	if (o.result != NULL) {
		json_error_t jerr;
		result = json_load_file(o.result, 0, &jerr);
		if (!json_is_object(result)) {
			fprintf(stderr, "perf-reclaim: %s: line %d: %s\n", o.result, jerr.line,
				result ? "not a JSON object" : jerr.text);
			json_decref(result);
			if (in != stdin)
				fclose(in);
			return EX_INPUT;
		}
	} else {
		result = json_object();
	}
	strmap_init(&stacks);
	status = read_samples(in, o.input ? o.input : "stdin", &stacks, &s);
	if (in != stdin)
		fclose(in);
	if (status != 0)
		goto done;
	status = 1;
	if (profile_build(&p, &stacks) != 0) {
		fprintf(stderr, "perf-reclaim: out of memory\n");
		goto done;
	}
	metrics = perf_metrics(&p, &s, result);
	if (metrics == NULL) {
		fprintf(stderr, "perf-reclaim: out of memory\n");
		profile_free(&p);
		goto done;
	}
	int opened = 0, failed = 0;
	for (; opened < NOUTPUTS; opened++)
		if (paths[opened] != NULL && atomic_output_open(&out[opened], paths[opened]) != 0) {
			fprintf(stderr, "perf-reclaim: %s: %s\n", paths[opened], strerror(errno));
			failed = 1;
			break;
		}
	if (!failed &&
	    ((paths[OUT_FOLDED] && folded_write(out[OUT_FOLDED].stream, &stacks) != 0) ||
	     (paths[OUT_REPORT] && report_write(out[OUT_REPORT].stream, &p, &s, o.top) != 0) ||
	     (paths[OUT_JSON] && (json_dumpf(metrics, out[OUT_JSON].stream,
					     JSON_INDENT(2) | JSON_REAL_PRECISION(10)) != 0 ||
				  fputc('\n', out[OUT_JSON].stream) == EOF)))) {
		fprintf(stderr, "perf-reclaim: out of memory\n");
		failed = 1;
	}
	for (int k = 0; k < opened; k++) {
		if (paths[k] == NULL)
			continue;
		if (failed) {
			atomic_output_abort(&out[k]);
		} else if (atomic_output_commit(&out[k]) != 0) {
			fprintf(stderr, "perf-reclaim: writing %s: %s\n", paths[k], strerror(errno));
			failed = 1;
		}
	}
	profile_free(&p);
	status = failed ? 1 : 0;
done:
	json_decref(metrics);
	json_decref(result);
	strmap_free(&stacks);
	return status;
}
