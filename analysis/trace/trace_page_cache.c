/* trace-page-cache: per file, the pages a trace.dat saw added to the page
 * cache and how many of them were read back (page_cache.h). */
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
#include "hot_pages.h"
#include "lost.h"
#include "page_cache.h"
#include "trace_open.h"

#define PROG "trace-page-cache"

struct options {
	bool json;
	bool have_dev;
	unsigned int dev;		/* the kernel's dev_t */
	const char *dev_text;
	const char *output;
	const char *trace;
	const char *refs;		/* --refs: the hot set's page-cache protection */
	const char *inodes_spec;	/* --object-inodes */
	double hot_percent;
};

struct scan {
	struct tep_handle *tep;
	int event_id;
	struct tep_format_field *s_dev, *i_ino, *index, *order;
	struct page_cache *pc;
	struct lost_events *lost;
	unsigned long long t0;
	bool started, failed;
};

static void usage(FILE *out)
{
	fputs("usage: " PROG " [--dev MAJ:MIN [--json]] [-o FILE] TRACE.dat\n"
	      "Reads the filemap:mm_filemap_add_to_page_cache events of a trace-cmd\n"
	      "trace.dat (lab.sh run --trace events --trace-profile page-cache) and writes,\n"
	      "per file, a CSV row: dev,ino,pages_added,pages,rereads (pages of every\n"
	      "insertion, distinct pages, and their difference: pages read back after\n"
	      "leaving the cache).  --dev keeps the files of one device; --json writes\n"
	      "their totals as one JSON object (result.json's data_page_cache: dev,\n"
	      "files, pages_added, pages, rereads, lost_events).  Events the ring buffer\n"
	      "lost make every count a lower bound: lost_events says how many.\n"
	      "--refs REFS --object-inodes 'OBJ:INO ...' (with --json): the workload's\n"
	      "hot set, the top --hot-percent (default 10) of the distinct pages of its\n"
	      "reference string by references, and how the page cache kept it: JSON\n"
	      "'hot': percent, pages, refs (to them), inserted (pages of it inserted at\n"
	      "all), rereads (insertions beyond each page's first), unmapped (hot pages\n"
	      "of objects without an inode, or whose inode another object had too).\n"
	      "-o writes FILE whole or not at all (default stdout).  Exit 3: the trace\n"
	      "holds no such events (recorded without them).\n",
	      out);
}

static int parse_dev(const char *text, unsigned int *dev)
{
	unsigned long major, minor;
	char *end;

	errno = 0;
	major = strtoul(text, &end, 10);
	if (errno || end == text || *end != ':' || major >= 1UL << 12)
		return -1;
	text = end + 1;
	minor = strtoul(text, &end, 10);
	if (errno || end == text || *end != '\0' || minor >= 1UL << 20)
		return -1;
	*dev = (unsigned int)(major << 20 | minor);
	return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "dev", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "refs", required_argument, NULL, 'r' },
		{ "object-inodes", required_argument, NULL, 'i' },
		{ "hot-percent", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	memset(o, 0, sizeof(*o));
	o->hot_percent = 10;
	while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			if (parse_dev(optarg, &o->dev) != 0) {
				fprintf(stderr, PROG ": bad --dev '%s' (MAJOR:MINOR, e.g. 254:48)\n", optarg);
				return 2;
			}
			o->have_dev = true;
			o->dev_text = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'r':
			o->refs = optarg;
			break;
		case 'i':
			o->inodes_spec = optarg;
			break;
		case 'p':
			if (parse_double(optarg, 0.0, 100.0, &o->hot_percent) != 0 || !(o->hot_percent > 0)) {
				fprintf(stderr, PROG ": bad --hot-percent '%s' (above 0, at most 100)\n",
					optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			fprintf(stderr, PROG ": bad arguments (see " PROG " --help)\n");
			return 2;
		}
	}
	if ((o->refs != NULL) != (o->inodes_spec != NULL) || (o->refs && !o->json)) {
		fprintf(stderr, PROG ": --refs and --object-inodes go together, with --json\n");
		return 2;
	}
	if (o->json && !o->have_dev) {
		fprintf(stderr, PROG ": --json needs --dev (the device whose totals it writes)\n");
		return 2;
	}
	if (argc - optind != 1) {
		fprintf(stderr, PROG ": want exactly one trace.dat (see " PROG " --help)\n");
		return 2;
	}
	o->trace = argv[optind];
	return 0;
}

static int on_record(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *data)
{
	struct scan *s = data;
	unsigned long long dev, ino, index, order;
	struct lost_gap gap;
	(void)handle;

	if (!s->started) {
		s->started = true;
		s->t0 = rec->ts;
	}
	if (lost_account(s->lost, cpu, rec, s->t0, &gap) < 0)
		goto fail;
	if (tep_data_type(s->tep, rec) != s->event_id)
		return 0;
	if (tep_read_number_field(s->s_dev, rec->data, &dev) != 0 ||
	    tep_read_number_field(s->i_ino, rec->data, &ino) != 0 ||
	    tep_read_number_field(s->index, rec->data, &index) != 0)
		return 0;
	if (s->order == NULL || tep_read_number_field(s->order, rec->data, &order) != 0)
		order = 0;
	if (page_cache_insert(s->pc, (unsigned int)dev, ino, index, (unsigned int)order) == 0)
		return 0;
fail:
	s->failed = true;
	return -1;
}

/* Returns 0, -1 after one error line, or -3 after one line when the
 * trace has no add events. */
static int count_insertions(struct tracecmd_input *handle, const char *path, struct page_cache *pc,
		      struct lost_events *lost)
{
	struct scan s = { .tep = tracecmd_get_tep(handle), .pc = pc, .lost = lost };
	struct tep_event *ev = tep_find_event_by_name(s.tep, "filemap", "mm_filemap_add_to_page_cache");

	if (ev == NULL) {
		fprintf(stderr, PROG ": %s: no filemap:mm_filemap_add_to_page_cache events recorded "
			"(lab.sh run --trace-profile page-cache records them)\n", path);
		return -3;
	}
	s.event_id = ev->id;
	s.s_dev = tep_find_field(ev, "s_dev");
	s.i_ino = tep_find_field(ev, "i_ino");
	s.index = tep_find_field(ev, "index");
	s.order = tep_find_field(ev, "order");	/* absent before 5.18 */
	if (s.s_dev == NULL || s.i_ino == NULL || s.index == NULL) {
		fprintf(stderr, PROG ": %s: mm_filemap_add_to_page_cache lacks s_dev, i_ino or index\n",
			path);
		return -1;
	}
	tracecmd_iterate_events(handle, NULL, 0, on_record, &s);
	if (s.failed) {
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	return 0;
}

static void write_csv(const struct page_cache *pc, const struct options *o, FILE *out)
{
	fputs("dev,ino,pages_added,pages,rereads\n", out);
	for (size_t i = 0; i < pc->nfiles; i++) {
		const struct page_cache_file *f = &pc->files[i];
		if (o->have_dev && f->dev != o->dev)
			continue;
		fprintf(out, "%u:%u,%llu,%llu,%llu,%llu\n", PAGE_CACHE_MAJOR(f->dev),
			PAGE_CACHE_MINOR(f->dev), f->ino, f->pages_added, f->pages,
			f->pages_added - f->pages);
	}
}

/* Does another object than k have k's inode? A file deleted during the
 * run (LevelDB's old tables) can leave its inode to a new one, and the
 * trace cannot tell their pages apart. */
static bool inode_shared(const unsigned long long *inos, int nobjs, int k)
{
	for (int j = 0; j < nobjs; j++)
		if (j != k && inos[j] == inos[k])
			return true;
	return false;
}

/* ",\"hot\":{...}": the hot set's protection (hot_pages.h). */
static void write_hot(const struct page_cache *pc, const struct options *o,
		      const struct hot_pages *h, const uint64_t *objs,
		      const unsigned long long *inos, int nobjs, FILE *out)
{
	unsigned long long inserted = 0, rereads = 0, unmapped = 0;

	for (size_t i = 0; i < h->n; i++) {
		uint64_t obj = h->pages[i].id >> HOT_OBJECT_SHIFT;
		unsigned long long page = h->pages[i].id & ((1ULL << HOT_OBJECT_SHIFT) - 1), adds;
		int k = 0;

		while (k < nobjs && objs[k] != obj)
			k++;
		if (k == nobjs || inode_shared(inos, nobjs, k)) {
			unmapped++;
			continue;
		}
		adds = page_cache_adds(pc, o->dev, inos[k], page);
		inserted += adds > 0;
		rereads += adds > 1 ? adds - 1 : 0;
	}
	fprintf(out, ",\"hot\":{\"percent\":%g,\"pages\":%zu,\"refs\":%llu,\"inserted\":%llu,"
		"\"rereads\":%llu,\"unmapped\":%llu}", o->hot_percent, h->n,
		(unsigned long long)h->refs, inserted, rereads, unmapped);
}

static void write_json(const struct page_cache *pc, const struct options *o,
		       const struct lost_events *lost, const struct hot_pages *h,
		       const uint64_t *objs, const unsigned long long *inos, int nobjs, FILE *out)
{
	unsigned long long added = 0, pages = 0, lost_events = 0;
	size_t files = 0;

	for (size_t i = 0; i < pc->nfiles; i++) {
		if (pc->files[i].dev != o->dev)
			continue;
		files++;
		added += pc->files[i].pages_added;
		pages += pc->files[i].pages;
	}
	for (int c = 0; c < lost->ncpus; c++)
		lost_events += lost_of_cpu(&lost->cpu[c]);
	fprintf(out, "{\"dev\":\"%u:%u\",\"files\":%zu,\"pages_added\":%llu,\"pages\":%llu,"
		"\"rereads\":%llu,\"lost_events\":%llu", PAGE_CACHE_MAJOR(o->dev),
		PAGE_CACHE_MINOR(o->dev), files, added, pages, added - pages, lost_events);
	if (h)
		write_hot(pc, o, h, objs, inos, nobjs, out);
	fputs("}\n", out);
}

int main(int argc, char **argv)
{
	struct options o;
	int rc = parse_options(argc, argv, &o);

	if (rc != 0)
		return rc;
	trace_open_init(PROG);
	struct tracecmd_input *handle = trace_open(o.trace);
	if (handle == NULL)
		return 1;

	struct page_cache pc;
	struct lost_events lost = { 0 };
	struct atomic_output out;
	struct hot_pages hot = { 0 };
	uint64_t *objs = NULL;
	unsigned long long *inos = NULL;
	int nobjs = 0, status = 1;
	char err[256];

	page_cache_init(&pc);
	if (o.refs) {
		/* at most one pair a space-separated word */
		size_t cap = 1;

		for (const char *c = o.inodes_spec; *c; c++)
			cap += *c == ' ';
		objs = calloc(cap, sizeof(*objs));
		inos = calloc(cap, sizeof(*inos));
		if (objs == NULL || inos == NULL) {
			fprintf(stderr, PROG ": out of memory\n");
			goto done;
		}
		nobjs = hot_parse_inodes(o.inodes_spec, objs, inos, cap);
		if (nobjs < 0) {
			fprintf(stderr, PROG ": bad --object-inodes '%s' (OBJ:INO, space-separated)\n",
				o.inodes_spec);
			status = 2;
			goto done;
		}
		if (hot_pages_load(o.refs, o.hot_percent, &hot, err, sizeof(err)) != 0) {
			fprintf(stderr, PROG ": %s\n", err);
			goto done;
		}
	}
	if (lost_init(&lost, tep_get_cpus(tracecmd_get_tep(handle))) != 0 ||
	    lost_read_kernel_stats(&lost, handle) != 0) {
		fprintf(stderr, PROG ": out of memory\n");
		goto done;
	}
	rc = count_insertions(handle, o.trace, &pc, &lost);
	if (rc != 0) {
		status = -rc;
		goto done;
	}
	page_cache_sort(&pc);
	if (atomic_output_open(&out, o.output) != 0) {
		fprintf(stderr, PROG ": %s: %s\n", o.output, strerror(errno));
		goto done;
	}
	if (o.json)
		write_json(&pc, &o, &lost, o.refs ? &hot : NULL, objs, inos, nobjs, out.stream);
	else
		write_csv(&pc, &o, out.stream);
	if (atomic_output_commit(&out) != 0) {
		fprintf(stderr, PROG ": writing %s: %s\n", o.output ? o.output : "stdout", strerror(errno));
		goto done;
	}
	status = 0;
done:
	free(objs);
	free(inos);
	hot_pages_free(&hot);
	lost_free(&lost);
	page_cache_free(&pc);
	tracecmd_close(handle);
	return status;
}
