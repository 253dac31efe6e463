/*
 * The workload driver: the skeleton every workload shares (CONTRACTS.md),
 * written once. A workload describes itself in a struct wl_spec and hands
 * over to wl_main(), which
 *
 *   1. parses the common options (--seed, --phase, --dir, --emit-refs,
 *      --check-only, --help, and with the flags below --size,
 *      --no-drop-caches, --readahead, --resident-samples, --procs) and
 *      the workload's own (spec->options): into the fields of its priv
 *      struct their entries name, or through spec->option (WL_OPT_OWN);
 *   2. calls spec->prepare (validate, lay out, parse the input files, add
 *      the describing RESULT fields; it reads what it must and creates,
 *      opens for writing or requires nothing: --check-only ends here,
 *      exit 0, before --dir is looked at), then opens the --emit-refs
 *      file (before setup, so a bad path costs nothing);
 *   3. setup phase: spec->setup, timed as "setup_s";
 *   4. run phase: spec->open (data files through wl_open_data, so the
 *      readahead advice and the cache dropping of --phase all reach them),
 *      with --phase all fsync + POSIX_FADV_DONTNEED of those files and
 *      drop_caches, then spec->run (which starts the clock with
 *      wl_timer_start and returns the elapsed seconds; with --procs N in N
 *      processes, each on its wl_share(), see procs.h), spec->report,
 *      then (WL_RESIDENT) the resident-set samples' fields;
 *   5. commits the reference string ("refs"), adds "verified" and
 *      "elapsed_s" and prints the one RESULT line.
 *
 * A verification failure goes through wl_verify_failed (RESULT line with
 * "verified":false and "verify_error", exit 3); any other error is die()
 * (the unfinished reference file is removed at exit).
 */
#ifndef LAB_DRIVER_H
#define LAB_DRIVER_H

#include "args.h"
#include "refs.h"
#include "resident.h"
#include "result.h"

#include <stddef.h>
#include <stdint.h>

enum wl_flags {
	WL_SIZE = 1u << 0,  /* --size SIZE (default 150% of MemTotal), in w->size */
	WL_FILES = 1u << 1, /* data files in --dir: --no-drop-caches, --readahead */
	WL_RESIDENT = 1u << 2, /* samples its resident set: --resident-samples */
	WL_PROCS = 1u << 3, /* --procs N: run() in N processes, w->proc of w->nprocs */
};

struct wl;
struct proc_slot;

/*
 * A workload's own option, parsed by the driver into a field of its priv
 * struct (the wl_opt_* macros below write the entries and check the
 * field's type), or handed to spec->option (WL_OPT_OWN). Bad values exit
 * 2 with the parser's message, "bad --NAME value 'X': ...".
 */
enum wl_opt_type {
	WL_OPT_OWN,      /* spec->option(w, val, arg) parses it; takes a value */
	WL_OPT_FLAG,     /* no value: the int field becomes 1 */
	WL_OPT_STRING,   /* the value as given, into a const char * field */
	WL_OPT_U64,      /* a number (arg_u64), into a uint64_t field */
	WL_OPT_POSITIVE, /* a number of at least 1 (arg_positive), and at most max
			  * when max is set, into a uint64_t */
	WL_OPT_PROGRAM,  /* a program to run (arg_program), into a const char * */
	WL_OPT_CHOICE,   /* the value's index in names (arg_choice), into an int or an enum */
};

struct wl_option {
	const char *name;  /* the long option without its "--" */
	enum wl_opt_type type;
	size_t offset;     /* of its field in the workload's priv struct */
	const char *what;  /* WL_OPT_PROGRAM: what the program is, for the error */
	const char *const *names; /* WL_OPT_CHOICE: the values, NULL-terminated */
	int val;           /* WL_OPT_OWN: spec->option's c, below 0x2000 */
	uint64_t max;      /* WL_OPT_POSITIVE: the largest value; 0: no limit */
};

/* offsetof(type, field), and a compile error unless the field is a ftype. */
#define WL_FIELD(type, field, ftype) _Generic(((type *)0)->field, ftype: offsetof(type, field))
/* The same for an int or an enum field (an enum is compatible with int or
 * unsigned int, so int-sized either way). */
#define WL_INT_FIELD(type, field) \
	_Generic(((type *)0)->field, int: offsetof(type, field), unsigned: offsetof(type, field))

/* The entries of a struct wl_option table, by type: OPT is the option's
 * name without its "--", FIELD its field in the workload's struct STYPE. */
#define wl_opt_flag(opt, stype, field) \
	{ .name = opt, .type = WL_OPT_FLAG, .offset = WL_FIELD(stype, field, int) }
#define wl_opt_string(opt, stype, field) \
	{ .name = opt, .type = WL_OPT_STRING, .offset = WL_FIELD(stype, field, const char *) }
#define wl_opt_u64(opt, stype, field) \
	{ .name = opt, .type = WL_OPT_U64, .offset = WL_FIELD(stype, field, uint64_t) }
#define wl_opt_positive(opt, stype, field) \
	{ .name = opt, .type = WL_OPT_POSITIVE, .offset = WL_FIELD(stype, field, uint64_t) }
/* 1 to LARGEST, or exit 2 with "bad --OPT value 'X': 1 to LARGEST" */
#define wl_opt_range(opt, stype, field, largest)                                          \
	{ .name = opt, .type = WL_OPT_POSITIVE, .offset = WL_FIELD(stype, field, uint64_t), \
	  .max = largest }
/* ABOUT: what the program is, for the error on an empty value */
#define wl_opt_program(opt, stype, field, about)                                               \
	{ .name = opt, .type = WL_OPT_PROGRAM, .offset = WL_FIELD(stype, field, const char *), \
	  .what = about }
#define wl_opt_choice(opt, stype, field, values) \
	{ .name = opt, .type = WL_OPT_CHOICE, .offset = WL_INT_FIELD(stype, field), .names = values }
/* Parsed by spec->option(w, c, arg), c being C (below 0x2000). */
#define wl_opt_own(opt, c) { .name = opt, .type = WL_OPT_OWN, .val = c }

/* The values of a WL_OPT_CHOICE option, for wl_opt_choice's names. */
#define WL_CHOICES(...) ((const char *const[]){ __VA_ARGS__, NULL })

struct wl_spec {
	const char *name;
	const char *about;   /* what it does, printed after the Usage line */
	const char *help;    /* the workload's own option lines (--size, --dir too) */
	/* What the objects of its reference string are; NULL: it has none
	 * (another program does its I/O), --emit-refs is refused. */
	const char *objects;
	const char *notes;   /* optional paragraph after the options */
	unsigned flags;
	uint64_t min_pages; /* WL_SIZE: the smallest size, in 4 KiB pages (>= 1) */
	/* The workload's own options (below), ending with { 0 }. */
	const struct wl_option *options;
	/* Parse one of its WL_OPT_OWN options, c being the entry's val: 1 if
	 * c was its, 0 otherwise. Bad values: die(2). */
	int (*option)(struct wl *w, int c, const char *arg);
	void (*prepare)(struct wl *w);
	void (*setup)(struct wl *w);  /* NULL: nothing to set up */
	void (*open)(struct wl *w);   /* NULL: no data set to open */
	double (*run)(struct wl *w);  /* the timed phase; returns its seconds */
	void (*report)(struct wl *w, double elapsed); /* NULL: nothing to add */
};

struct wl {
	const struct wl_spec *spec;
	void *priv; /* the workload's own state */
	uint64_t size; /* WL_SIZE: bytes, rounded down to 4 KiB */
	const char *size_arg;
	uint64_t seed;
	enum phase phase;
	const char *dir;
	const char *refs_path;
	int keep_caches; /* --no-drop-caches */
	int readahead;   /* --readahead on (1, default) or off (0) */
	int check_only;  /* --check-only: parse options and inputs, nothing else */
	unsigned resident_samples; /* WL_RESIDENT: samples a pass (resident.h); 0: none */
	/* WL_RESIDENT: the timed phase's samples of its data's resident set
	 * (run() initialises and takes them, and leaves their seconds out of
	 * its own); the driver reports them after spec->report */
	struct resident_sampler resident;
	unsigned nprocs; /* WL_PROCS: processes of the timed phase (1: this one) */
	unsigned proc;   /* which of them this is, from 0 */
	struct proc_slot *slot; /* in a process of --procs N > 1: what it hands back */
	struct refs refs;
	struct result res;
	double start; /* of the timed phase */
	int *fds;     /* data files opened by wl_open_data */
	size_t nfds, fds_cap;
	/* "OBJ:INO ..." of those files: RESULT's object_inodes, which maps
	 * the reference string's objects to the page-cache trace's files */
	char *object_inodes;
};

/*
 * This process's share of n items (pages, operations) under --procs:
 * [*first, *first + *count), the first n % nprocs processes one more.
 * With one process, all of them.
 */
static inline void wl_share(const struct wl *w, uint64_t n, uint64_t *first, uint64_t *count)
{
	uint64_t base = n / w->nprocs, extra = n % w->nprocs;

	*count = base + (w->proc < extra);
	*first = w->proc * base + (w->proc < extra ? w->proc : extra);
}

/*
 * In prepare, for WL_PROCS: exit 2 unless each of --procs N processes gets
 * at least one of the n items wl_share() deals out: "bad --procs value N:
 * more processes than ITEMS", ITEMS being items_fmt with n for its %llu
 * (e.g. "the file's %llu pages").
 */
void wl_procs_at_most(const struct wl *w, uint64_t n, const char *items_fmt)
	__attribute__((format(printf, 3, 0)));

/* Run the workload; returns main()'s exit code. */
int wl_main(int argc, char **argv, const struct wl_spec *spec, void *priv);

/* The timed phase starts now; elapsed seconds since then (0 before). */
void wl_timer_start(struct wl *w);
double wl_timer_elapsed(const struct wl *w);

/* Record the reference (object, page) of the timed phase. */
static inline void wl_ref(struct wl *w, uint64_t object, uint64_t page)
{
	refs_add(&w->refs, REFS_ID(object, page));
}

/* Print the RESULT line with "verified":false and "verify_error":where,
 * then "NAME: message" on stderr, and exit 3. */
_Noreturn void wl_verify_failed(struct wl *w, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Setup: create a stamped data file of pages pages for object (with
 * --seed; datafile_create), or exit 1 naming it. */
void wl_create_data(const struct wl *w, const char *path, uint64_t pages, uint64_t object);

/*
 * Open a stamped data file set up by datafile_create (exits 1 when it is
 * missing or was set up with other options), remember it for the cache
 * dropping of --phase all and, with --readahead off, advise
 * POSIX_FADV_RANDOM on it: the kernel then reads exactly the pages a
 * read() asks for, no readahead window.
 */
int wl_open_data(struct wl *w, const char *path, uint64_t pages, uint64_t object, int flags);

/* Remember an fd the workload opened itself (same treatment as above). */
void wl_track_fd(struct wl *w, int fd, const char *what);

/* A shared read-only mapping of a data file; with --readahead off also
 * madvise(MADV_RANDOM), which stops the fault path's read-around. */
const unsigned char *wl_map(struct wl *w, int fd, uint64_t bytes, const char *what);

/* With --dir: "DIR/name", malloc'd. */
char *wl_path(const struct wl *w, const char *name);

#endif
