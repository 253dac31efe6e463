#include "driver.h"

#include "clock.h"
#include "datafile.h"
#include "err.h"
#include "meminfo.h"
#include "procs.h"
#include "resident.h"
#include "stamp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
	OPT_SIZE = 0x2000,
	OPT_SEED,
	OPT_PHASE,
	OPT_DIR,
	OPT_REFS,
	OPT_KEEP_CACHES,
	OPT_READAHEAD,
	OPT_CHECK_ONLY,
	OPT_HELP,
	OPT_RESIDENT_SAMPLES,
	OPT_PROCS,
};

/* getopt's val for entry i of the workload's table (WL_OPT_OWN: its own val) */
#define OPT_TABLE 0x3000

static const struct option common_options[] = {
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "phase", required_argument, NULL, OPT_PHASE },
	{ "dir", required_argument, NULL, OPT_DIR },
	{ "emit-refs", required_argument, NULL, OPT_REFS },
	{ "check-only", no_argument, NULL, OPT_CHECK_ONLY },
	{ "help", no_argument, NULL, OPT_HELP },
};

static const struct option size_option = { "size", required_argument, NULL, OPT_SIZE };

static const struct option resident_option = { "resident-samples", required_argument, NULL,
					       OPT_RESIDENT_SAMPLES };

static const struct option procs_option = { "procs", required_argument, NULL, OPT_PROCS };

static const struct option file_options[] = {
	{ "no-drop-caches", no_argument, NULL, OPT_KEEP_CACHES },
	{ "readahead", required_argument, NULL, OPT_READAHEAD },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void usage(const struct wl_spec *s)
{
	printf("Usage: %s [options]\n%s\n%s", s->name, s->about, s->help);
	printf("  --phase PHASE     setup: create the data set; run: the timed phase\n"
	       "                    only; all (default): setup, ");
	if (s->flags & WL_FILES)
		printf("fsync, fadvise(DONTNEED),\n"
		       "                    drop caches if allowed, ");
	printf("run\n");
	if (s->flags & WL_FILES)
		printf("  --no-drop-caches  with --phase all, do not write drop_caches (only\n"
		       "                    fsync and fadvise this workload's files)\n"
		       "  --readahead on|off  off: posix_fadvise(POSIX_FADV_RANDOM) on every\n"
		       "                    data file (and madvise(MADV_RANDOM) on its\n"
		       "                    mappings), so the kernel reads only the pages\n"
		       "                    asked for (default on)\n");
	if (s->flags & WL_RESIDENT)
		printf("  --resident-samples N  how often to sample the data's resident set:\n"
		       "                    N times a pass after the first, or over the\n"
		       "                    second half of a run without passes (1 to %d,\n"
		       "                    default %d)\n",
		       RESIDENT_SAMPLES_MAX, RESIDENT_SAMPLES_PER_PASS);
	if (s->flags & WL_PROCS)
		printf("  --procs N         run the timed phase in N processes (1 to %d,\n"
		       "                    default 1), each on its share of the data,\n"
		       "                    verifying what it reads; elapsed_s is the\n"
		       "                    slowest's. N > 1 samples no resident set and\n"
		       "                    writes no reference string\n",
		       PROCS_MAX);
	if (s->objects)
		printf("  --emit-refs FILE  write the timed phase's page reference string\n"
		       "                    (LABREFS1; %s)\n",
		       s->objects);
	printf("  --check-only      parse the options and the input files they name,\n"
	       "                    then exit 0 (or 2 with the usual error); creates,\n"
	       "                    opens and requires nothing else, not even --dir\n"
	       "  --help            this text\n");
	if (s->notes)
		printf("\n%s", s->notes);
	printf("\nExit: 0 ok, 1 runtime error, 2 bad arguments, 3 verification failed.\n");
}

/* getopt_long's entry for entry i of the workload's option table. */
static struct option getopt_entry(const struct wl_option *wo, size_t i)
{
	struct option o = { wo->name, required_argument, NULL, OPT_TABLE + (int)i };

	if (wo->type == WL_OPT_FLAG)
		o.has_arg = no_argument;
	if (wo->type == WL_OPT_OWN)
		o.val = wo->val;
	return o;
}

/* The workload's options, then the common ones its flags ask for. */
static struct option *all_options(const struct wl_spec *s)
{
	size_t own = 0, n = 0;
	struct option *o;

	while (s->options && s->options[own].name)
		own++;
	o = calloc(own + COUNT(common_options) + COUNT(file_options) + 4, sizeof(*o));
	if (!o)
		die(EXIT_LAB_RUNTIME, "out of memory");
	for (size_t i = 0; i < own; i++)
		o[n++] = getopt_entry(&s->options[i], i);
	for (size_t i = 0; i < COUNT(common_options); i++)
		o[n++] = common_options[i];
	if (s->flags & WL_SIZE)
		o[n++] = size_option;
	if (s->flags & WL_RESIDENT)
		o[n++] = resident_option;
	if (s->flags & WL_PROCS)
		o[n++] = procs_option;
	if (s->flags & WL_FILES)
		for (size_t i = 0; i < COUNT(file_options); i++)
			o[n++] = file_options[i];
	return o; /* calloc'd: the terminator is all zero */
}

static int parse_readahead(const char *arg)
{
	if (!strcmp(arg, "on"))
		return 1;
	if (!strcmp(arg, "off"))
		return 0;
	die(EXIT_LAB_USAGE, "bad --readahead value '%s': expected on or off", arg);
}

static unsigned arg_resident_samples(const char *arg)
{
	uint64_t n = arg_positive("--resident-samples", arg);

	if (n > RESIDENT_SAMPLES_MAX)
		die(EXIT_LAB_USAGE, "bad --resident-samples value '%s': at most %d", arg,
		    RESIDENT_SAMPLES_MAX);
	return (unsigned)n;
}

static unsigned arg_procs(const char *arg)
{
	uint64_t n = arg_positive("--procs", arg);

	if (n > PROCS_MAX)
		die(EXIT_LAB_USAGE, "bad --procs value '%s': at most %d", arg, PROCS_MAX);
	return (unsigned)n;
}

/* Parse arg into the field of w->priv that the typed option o names. */
static void set_option(struct wl *w, const struct wl_option *o, const char *arg)
{
	char *field = (char *)w->priv + o->offset;
	char opt[64];
	int choice;

	snprintf(opt, sizeof(opt), "--%s", o->name);
	switch (o->type) {
	case WL_OPT_FLAG:
		*(int *)field = 1;
		break;
	case WL_OPT_STRING:
		*(const char **)field = arg;
		break;
	case WL_OPT_U64:
		*(uint64_t *)field = arg_u64(opt, arg);
		break;
	case WL_OPT_POSITIVE:
		*(uint64_t *)field = arg_positive(opt, arg);
		if (o->max && *(uint64_t *)field > o->max)
			die(EXIT_LAB_USAGE, "bad %s value '%s': 1 to %llu", opt, arg,
			    (unsigned long long)o->max);
		break;
	case WL_OPT_PROGRAM:
		*(const char **)field = arg_program(opt, arg, o->what);
		break;
	case WL_OPT_CHOICE:
		/* an int or an enum field, int-sized either way (WL_INT_FIELD) */
		choice = arg_choice(opt, arg, o->names);
		memcpy(field, &choice, sizeof(choice));
		break;
	case WL_OPT_OWN:
		break; /* getopt returns its own val, never OPT_TABLE + i */
	}
}

/* One of the workload's options, c being getopt's val: 1 when it was one
 * (parsed by its table entry, or by spec->option), 0 otherwise. */
static int workload_option(struct wl *w, int c, const char *arg)
{
	const struct wl_spec *s = w->spec;

	if (c >= OPT_TABLE) {
		set_option(w, &s->options[c - OPT_TABLE], arg);
		return 1;
	}
	return s->option && s->option(w, c, arg);
}

static void parse(struct wl *w, int argc, char **argv)
{
	const struct wl_spec *s = w->spec;
	struct option *longopts = all_options(s);
	int c;

	w->size_arg = "150%";
	w->seed = 1;
	w->phase = PHASE_ALL;
	w->dir = "/data";
	w->readahead = 1;
	w->resident_samples = RESIDENT_SAMPLES_PER_PASS;
	w->nprocs = 1;
	while ((c = arg_next(argc, argv, longopts)) != -1) {
		switch (c) {
		case OPT_SIZE:
			w->size_arg = optarg;
			break;
		case OPT_SEED:
			w->seed = arg_u64("--seed", optarg);
			break;
		case OPT_PHASE:
			w->phase = arg_phase(optarg);
			break;
		case OPT_DIR:
			w->dir = optarg;
			break;
		case OPT_REFS:
			w->refs_path = optarg;
			break;
		case OPT_KEEP_CACHES:
			w->keep_caches = 1;
			break;
		case OPT_READAHEAD:
			w->readahead = parse_readahead(optarg);
			break;
		case OPT_CHECK_ONLY:
			w->check_only = 1;
			break;
		case OPT_RESIDENT_SAMPLES:
			w->resident_samples = arg_resident_samples(optarg);
			break;
		case OPT_PROCS:
			w->nprocs = arg_procs(optarg);
			break;
		case 'h':
		case OPT_HELP:
			usage(s);
			exit(0);
		default:
			if (!workload_option(w, c, optarg))
				arg_getopt_failed(c, argv, optind);
		}
	}
	free(longopts);
	if (w->refs_path && !s->objects)
		die(EXIT_LAB_USAGE, "--emit-refs is not offered: another program (%s's engine) "
		    "makes the references", s->name);
	if (w->nprocs > 1) {
		if (w->refs_path)
			die(EXIT_LAB_USAGE, "--emit-refs needs --procs 1: %u processes make no one "
			    "reference string", w->nprocs);
		/* each process would sample the whole data set, at its own times */
		w->resident_samples = 0;
	}
	if (s->flags & WL_SIZE) {
		uint64_t min = s->min_pages ? s->min_pages : 1;

		w->size = arg_size("--size", w->size_arg, meminfo_total()) / LAB_PAGE_SIZE *
			  LAB_PAGE_SIZE;
		if (w->size / LAB_PAGE_SIZE < min) {
			if (min == 1)
				die(EXIT_LAB_USAGE,
				    "bad --size value '%s': smaller than one 4 KiB page", w->size_arg);
			die(EXIT_LAB_USAGE, "bad --size value '%s': need at least %llu pages (%llu KiB)",
			    w->size_arg, (unsigned long long)min, (unsigned long long)min * 4);
		}
	}
	/* setup writes in --dir; run only reads what is there. */
	if ((s->flags & WL_FILES) && !w->check_only && access(w->dir, W_OK | X_OK) &&
	    (w->phase != PHASE_RUN || access(w->dir, X_OK)))
		die(EXIT_LAB_USAGE, "bad --dir value '%s': %s", w->dir, strerror(errno));
}

void wl_procs_at_most(const struct wl *w, uint64_t n, const char *items_fmt)
{
	char items[128];

	if (w->nprocs <= n)
		return;
	snprintf(items, sizeof(items), items_fmt, (unsigned long long)n);
	die(EXIT_LAB_USAGE, "bad --procs value %u: more processes than %s", w->nprocs, items);
}

void wl_timer_start(struct wl *w)
{
	w->start = clock_now();
}

double wl_timer_elapsed(const struct wl *w)
{
	/* 0 before the timed phase started (a failure in its preparation) */
	return w->start > 0 ? clock_now() - w->start : 0;
}

_Noreturn void wl_verify_failed(struct wl *w, const char *where, const char *fmt, ...)
{
	va_list ap;

	err_claim_exit();
	if (w->slot) { /* a process of --procs: its parent writes the RESULT line */
		char msg[256];

		w->slot->verify_failed = 1;
		snprintf(w->slot->verify_error, sizeof(w->slot->verify_error), "%s", where);
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		die(EXIT_LAB_VERIFY, "process %u: %s", w->proc, msg);
	}
	refs_abort(&w->refs);
	result_bool(&w->res, "verified", 0);
	result_str(&w->res, "verify_error", where);
	result_num(&w->res, "elapsed_s", wl_timer_elapsed(w));
	result_print(&w->res);
	va_start(ap, fmt);
	vdie(EXIT_LAB_VERIFY, fmt, ap);
}

void wl_track_fd(struct wl *w, int fd, const char *what)
{
	if (w->nfds == w->fds_cap) {
		size_t cap = w->fds_cap ? 2 * w->fds_cap : 8;
		int *fds = realloc(w->fds, cap * sizeof(*fds));

		if (!fds)
			die(EXIT_LAB_RUNTIME, "out of memory");
		w->fds = fds;
		w->fds_cap = cap;
	}
	w->fds[w->nfds++] = fd;
	if (!w->readahead) {
		int err = posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);

		if (err)
			die(EXIT_LAB_RUNTIME, "cannot switch readahead off on %s: %s", what,
			    strerror(err));
	}
}

void wl_create_data(const struct wl *w, const char *path, uint64_t pages, uint64_t object)
{
	int err = datafile_create(path, pages, w->seed, object);

	if (err)
		die(EXIT_LAB_RUNTIME, "cannot create %s: %s", path, strerror(err));
}

int wl_open_data(struct wl *w, const char *path, uint64_t pages, uint64_t object, int flags)
{
	int fd = datafile_open(path, pages, w->seed, object, flags);
	struct stat st;
	char pair[48];
	size_t len;
	char *p;

	wl_track_fd(w, fd, path);
	/* object -> inode, for the page-cache trace's view of the objects */
	if (fstat(fd, &st))
		die(EXIT_LAB_RUNTIME, "cannot stat %s: %s", path, strerror(errno));
	len = w->object_inodes ? strlen(w->object_inodes) : 0;
	snprintf(pair, sizeof(pair), "%s%llu:%llu", len ? " " : "", (unsigned long long)object,
		 (unsigned long long)st.st_ino);
	p = realloc(w->object_inodes, len + strlen(pair) + 1);
	if (!p)
		die(EXIT_LAB_RUNTIME, "out of memory");
	strcpy(p + len, pair);
	w->object_inodes = p;
	return fd;
}

const unsigned char *wl_map(struct wl *w, int fd, uint64_t bytes, const char *what)
{
	void *p = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		die(EXIT_LAB_RUNTIME, "cannot map the %s file: %s", what, strerror(errno));
	if (!w->readahead && madvise(p, bytes, MADV_RANDOM))
		die(EXIT_LAB_RUNTIME, "cannot switch readahead off on the %s mapping: %s", what,
		    strerror(errno));
	return p;
}

char *wl_path(const struct wl *w, const char *name)
{
	return datafile_path(w->dir, name);
}

static void uncache(struct wl *w)
{
	for (size_t i = 0; i < w->nfds; i++) {
		int err = datafile_uncache(w->fds[i], 0);

		if (err)
			die(EXIT_LAB_RUNTIME, "cannot drop the data set from the page cache: %s",
			    strerror(err));
	}
	if (!w->keep_caches) {
		int err = drop_caches();

		if (err)
			die(EXIT_LAB_RUNTIME, "cannot drop caches: %s", strerror(err));
	}
}

static double run_phase(struct wl *w)
{
	const struct wl_spec *s = w->spec;
	double elapsed;

	if (s->open)
		s->open(w);
	if (w->phase == PHASE_ALL && (s->flags & WL_FILES))
		uncache(w);
	if (w->nprocs > 1) {
		double shortest;

		elapsed = procs_run(w, s->run, &shortest);
		result_u64(&w->res, "procs", w->nprocs);
		result_num(&w->res, "procs_shortest_s", shortest);
	} else {
		elapsed = s->run(w);
	}
	if (s->report)
		s->report(w, elapsed);
	if (s->flags & WL_RESIDENT)
		resident_sampler_report(&w->resident, &w->res);
	for (size_t i = 0; i < w->nfds; i++)
		close(w->fds[i]);
	w->nfds = 0;
	refs_emit_commit(&w->refs, w->refs_path, &w->res);
	return elapsed;
}

int wl_main(int argc, char **argv, const struct wl_spec *spec, void *priv)
{
	struct wl w = { .spec = spec, .priv = priv };
	double elapsed = 0;

	err_set_prog(spec->name);
	parse(&w, argc, argv);
	result_init(&w.res, spec->name);
	result_str(&w.res, "phase", phase_name(w.phase));
	if (spec->flags & WL_FILES)
		result_str(&w.res, "readahead", w.readahead ? "on" : "off");
	spec->prepare(&w);
	if (w.check_only)
		return 0;

	refs_none(&w.refs);
	if ((w.phase & PHASE_RUN) && w.refs_path)
		refs_emit_open(&w.refs, w.refs_path);
	if ((w.phase & PHASE_SETUP) && spec->setup) {
		double t = clock_now();

		spec->setup(&w);
		result_num(&w.res, "setup_s", clock_now() - t);
	}
	if (w.phase & PHASE_RUN)
		elapsed = run_phase(&w);
	if ((w.phase & PHASE_RUN) && w.object_inodes)
		result_str(&w.res, "object_inodes", w.object_inodes);
	result_bool(&w.res, "verified", 1);
	result_num(&w.res, "elapsed_s", elapsed);
	free(w.fds);
	free(w.object_inodes);
	return result_print(&w.res) ? EXIT_LAB_RUNTIME : 0;
}
