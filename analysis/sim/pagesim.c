/* pagesim: count page-replacement misses for a reference string under
 * several models and cache sizes.  See README.md. */
#define _POSIX_C_SOURCE 200809L

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "modelspec.h"
#include "policy.h"
#include "sizes.h"
#include "trace.h"

#define EXIT_BAD_FILE 1
#define EXIT_BAD_ARGS 2

struct result {
	const char *label;
	size_t cache_pages;
	unsigned long long misses;
};

struct options {
	struct model *models;
	size_t n_models;
	size_t *sizes;
	size_t n_sizes;
	unsigned table; /* index in formats[]: 0 csv, 1 table */
	int timing;
	unsigned long long seed;
	const char *clockpro_min_cold; /* shorthands for :min-cold= and :insert= */
	const char *clockpro_insert;
	char min_cold_opt[40];
	const char *path;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: pagesim --sizes LIST [options] FILE\n"
		"Counts misses of page-replacement models on a reference string.\n"
		"FILE is LABREFS1 binary or LIRS text (one block number per line).\n"
		"  --sizes LIST            cache sizes in pages: N[,N...] or FIRST:LAST:STEP items\n"
		"  --policies LIST         comma-separated models (default: all, see --list-policies);\n"
		"                          a model is NAME or NAME:KEY=VALUE[:KEY=VALUE...]\n"
		"  --format csv|table      output format (default csv)\n"
		"  --seed N                seed for the random model (default 1)\n"
		"  --clockpro-min-cold N   shorthand for :min-cold=N on every CLOCK-Pro model\n"
		"  --clockpro-port-insert  shorthand for :insert=port on every CLOCK-Pro model\n"
		"  --timing                per-run speed on stderr\n"
		"  --list-policies         print the models and exit\n"
		"  --help                  this text\n"
		"Output: policy,cache_pages,refs,distinct,misses,miss_ratio\n"
		"Exit: 0 ok, 1 unreadable or malformed file, 2 bad arguments.\n"
		"Model options (NAME:KEY=VALUE):\n");
	model_list(out, true);
}

static void die(int code, const char *fmt, const char *arg)
{
	fputs("pagesim: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(code);
}

static void add_model(struct options *opt, const char *spec)
{
	const char *defaults[3];
	size_t n = 0;
	char err[200];

	if (opt->clockpro_min_cold)
		defaults[n++] = opt->clockpro_min_cold;
	if (opt->clockpro_insert)
		defaults[n++] = opt->clockpro_insert;
	defaults[n] = NULL;
	if (model_parse(spec, defaults, &opt->models[opt->n_models], err, sizeof(err)) < 0)
		die(strcmp(err, "out of memory") ? EXIT_BAD_ARGS : EXIT_BAD_FILE, "%s", err);
	opt->n_models++;
}

/* Every model in spec, or all models when spec is NULL. */
static void parse_policies(const char *spec, struct options *opt)
{
	size_t max = 1;
	char *copy, *item, *rest;

	if (!spec) {
		for (max = 0; sim_policies[max]; max++)
			;
		opt->models = calloc(max, sizeof(*opt->models));
		if (!opt->models)
			die(EXIT_BAD_FILE, "%s", "out of memory");
		for (size_t i = 0; i < max; i++)
			add_model(opt, sim_policies[i]->name);
		return;
	}
	for (const char *p = spec; *p; p++)
		max += *p == ',';
	opt->models = calloc(max, sizeof(*opt->models));
	copy = strdup(spec);
	if (!opt->models || !copy)
		die(EXIT_BAD_FILE, "%s", "out of memory");
	rest = copy;
	do {
		item = rest;
		rest = strchr(rest, ',');
		if (rest)
			*rest++ = '\0';
		add_model(opt, item);
	} while (rest);
	free(copy);
}

static void parse_args(int argc, char **argv, struct options *opt)
{
	enum { OPT_SIZES = 256, OPT_POLICIES, OPT_FORMAT, OPT_SEED, OPT_MIN_COLD, OPT_PORT_INSERT,
	       OPT_TIMING, OPT_LIST, OPT_HELP };
	static const struct option longopts[] = {
		{ "sizes", required_argument, NULL, OPT_SIZES },
		{ "policies", required_argument, NULL, OPT_POLICIES },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "clockpro-min-cold", required_argument, NULL, OPT_MIN_COLD },
		{ "clockpro-port-insert", no_argument, NULL, OPT_PORT_INSERT },
		{ "timing", no_argument, NULL, OPT_TIMING },
		{ "list-policies", no_argument, NULL, OPT_LIST },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const formats[] = { "csv", "table", NULL };
	const char *sizes_spec = NULL, *policies_spec = NULL;
	char err[160];
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_SIZES:
			sizes_spec = optarg;
			break;
		case OPT_POLICIES:
			policies_spec = optarg;
			break;
		case OPT_FORMAT:
			if (parse_choice(optarg, formats, &opt->table) < 0)
				die(EXIT_BAD_ARGS, "unknown format '%s' (csv or table)", optarg);
			break;
		case OPT_SEED:
			if (parse_u64(optarg, &opt->seed) < 0)
				die(EXIT_BAD_ARGS, "bad seed '%s'", optarg);
			break;
		case OPT_MIN_COLD: {
			unsigned long long pages;

			if (parse_u64(optarg, &pages) < 0 || pages == 0)
				die(EXIT_BAD_ARGS, "bad --clockpro-min-cold '%s' (want pages > 0)", optarg);
			snprintf(opt->min_cold_opt, sizeof(opt->min_cold_opt), "min-cold=%llu", pages);
			opt->clockpro_min_cold = opt->min_cold_opt;
			break;
		}
		case OPT_PORT_INSERT:
			opt->clockpro_insert = "insert=port";
			break;
		case OPT_TIMING:
			opt->timing = 1;
			break;
		case OPT_LIST:
			model_list(stdout, false);
			exit(0);
		case OPT_HELP:
			usage(stdout);
			exit(0);
		default:
			die(EXIT_BAD_ARGS, "bad option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		die(EXIT_BAD_ARGS, "%s", optind < argc ? "more than one FILE given" : "no FILE given (see --help)");
	opt->path = argv[optind];
	if (!sizes_spec)
		die(EXIT_BAD_ARGS, "%s", "--sizes is required");
	if (sizes_parse(sizes_spec, &opt->sizes, &opt->n_sizes, err, sizeof(err)) < 0)
		die(EXIT_BAD_ARGS, "%s", err);
	parse_policies(policies_spec, opt);
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static unsigned long long simulate(const struct model *model, const struct sim_trace *trace,
				   const struct sim_params *params)
{
	const struct sim_policy *policy = model->policy;
	void *state = policy->create(trace, params, model->opts);
	unsigned long long misses = 0;

	if (!state)
		die(EXIT_BAD_FILE, "out of memory creating model '%s'", model->label);
	for (size_t i = 0; i < trace->n_refs; i++)
		misses += !policy->access(state, trace->refs[i]);
	free(state);
	return misses;
}

static void print_results(const struct options *opt, const struct sim_trace *trace,
			  const struct result *results, size_t n)
{
	if (opt->table)
		printf("%-14s %12s %12s %10s %12s %10s\n", "policy", "cache_pages", "refs", "distinct",
		       "misses", "miss_ratio");
	else
		printf("policy,cache_pages,refs,distinct,misses,miss_ratio\n");
	for (size_t i = 0; i < n; i++) {
		double ratio = (double)results[i].misses / (double)trace->n_refs;

		if (opt->table)
			printf("%-14s %12zu %12zu %10zu %12llu %10.6f\n", results[i].label,
			       results[i].cache_pages, trace->n_refs, trace->distinct, results[i].misses, ratio);
		else
			printf("%s,%zu,%zu,%zu,%llu,%.6f\n", results[i].label, results[i].cache_pages,
			       trace->n_refs, trace->distinct, results[i].misses, ratio);
	}
}

int main(int argc, char **argv)
{
	struct options opt = { .seed = 1 };
	struct sim_trace trace;
	struct result *results;
	size_t n_results = 0;
	char err[512];
	double t0;

	parse_args(argc, argv, &opt);
	t0 = now_seconds();
	if (trace_load(opt.path, &trace, err, sizeof(err)) < 0)
		die(EXIT_BAD_FILE, "%s", err);
	if (opt.timing)
		fprintf(stderr, "pagesim: timing load refs=%zu distinct=%zu seconds=%.3f\n", trace.n_refs,
			trace.distinct, now_seconds() - t0);
	for (size_t p = 0; p < opt.n_models; p++) {
		if (!opt.models[p].policy->needs_future)
			continue;
		t0 = now_seconds();
		if (trace_compute_next_use(&trace) < 0)
			die(EXIT_BAD_FILE, "%s", "out of memory computing next uses");
		if (opt.timing)
			fprintf(stderr, "pagesim: timing next-use seconds=%.3f\n", now_seconds() - t0);
		break;
	}
	results = calloc(opt.n_models * opt.n_sizes, sizeof(*results));
	if (!results)
		die(EXIT_BAD_FILE, "%s", "out of memory");
	for (size_t p = 0; p < opt.n_models; p++) {
		for (size_t s = 0; s < opt.n_sizes; s++) {
			/* A cache at least as large as the distinct pages never evicts, so
			 * the models need no more frames than that. */
			size_t frames = opt.sizes[s] < trace.distinct ? opt.sizes[s] : trace.distinct;
			struct sim_params params = {
				.cache_pages = frames,
				.seed = opt.seed,
			};
			struct result *r = &results[n_results++];

			t0 = now_seconds();
			r->label = opt.models[p].label;
			r->cache_pages = opt.sizes[s];
			r->misses = simulate(&opt.models[p], &trace, &params);
			if (opt.timing) {
				double dt = now_seconds() - t0;

				fprintf(stderr,
					"pagesim: timing policy=%s cache_pages=%zu seconds=%.3f mrefs_per_s=%.2f\n",
					r->label, r->cache_pages, dt, (double)trace.n_refs / dt / 1e6);
			}
		}
	}
	print_results(&opt, &trace, results, n_results);
	free(results);
	free(opt.sizes);
	for (size_t p = 0; p < opt.n_models; p++)
		model_free(&opt.models[p]);
	free(opt.models);
	trace_free(&trace);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fputs("pagesim: error writing output\n", stderr);
		return EXIT_BAD_FILE;
	}
	return 0;
}
