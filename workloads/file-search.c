/*
 * file-search: Debian's ripgrep over a source tree larger than RAM, several
 * passes with different patterns, as a developer's searches go (cache_ext
 * evaluates it on the Linux tree). Every pass reads every file again: the
 * page cache holds what it can of a tree it cannot hold, and the dentry
 * and inode caches are reclaimed beside it.
 *
 * The tree is a prefix, in path order, of the Linux source tree on the
 * guest's read-only sources disk (/sources, images/build-sources.sh: the
 * linux-source-6.1 package's tree and its manifest, lib/sources.h), the
 * files up to --size bytes. Setup copies them onto the data disk (under a
 * temporary name, then renamed, with a .meta record); the run drops the
 * caches and runs rg once a pass, pass p with pattern p % 3, and holds
 * every file's match count to the count the host's ripgrep found in it: a
 * lost, stale or damaged page changes a count and fails the run (exit 3).
 */
#include "clock.h"
#include "datafile.h"
#include "driver.h"
#include "err.h"
#include "rgcount.h"
#include "sources.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TREE_NAME "file-search.tree"
#define COPY_CHUNK (1u << 16)

struct file_search {
	const char *sources; /* the sources disk: manifest and linux/ */
	const char *rg;
	uint64_t passes;
	struct sources manifest;
	size_t files;   /* the prefix of the manifest in the tree */
	uint64_t bytes; /* their sizes */
	char *tree, *meta;
	/* the pass being checked */
	unsigned pattern;
	unsigned char *seen;
	uint64_t matches, pass;
	struct wl *w;
	double slowest_pass_s;
};

static const struct wl_option options[] = {
	wl_opt_string("sources", struct file_search, sources),
	wl_opt_positive("passes", struct file_search, passes),
	wl_opt_program("rg", struct file_search, rg, "the ripgrep program to run"),
	{ 0 },
};

static void prepare(struct wl *w)
{
	struct file_search *fs = w->priv;

	if (!w->readahead)
		die(EXIT_LAB_USAGE, "--readahead off: ripgrep reads the files, not this program");
	fs->w = w;
	fs->tree = wl_path(w, TREE_NAME);
	fs->meta = wl_path(w, TREE_NAME ".meta");
	result_u64(&w->res, "size_bytes", w->size);
	result_u64(&w->res, "passes", fs->passes);
	result_str(&w->res, "patterns", "EXPORT_SYMBOL|spin_lock\\(|struct page \\*");
}

/* The manifest, and the prefix of its files that makes up --size. */
static void select_files(struct wl *w, struct file_search *fs)
{
	char *path = datafile_path(fs->sources, "manifest");

	if (sources_read(&fs->manifest, path))
		exit(EXIT_LAB_RUNTIME);
	free(path);
	fs->files = 0;
	fs->bytes = 0;
	while (fs->files < fs->manifest.n && fs->bytes < w->size)
		fs->bytes += fs->manifest.files[fs->files++].size;
	if (fs->bytes < w->size)
		die(EXIT_LAB_USAGE, "bad --size: the source tree holds %llu bytes, fewer than %llu",
		    (unsigned long long)fs->bytes, (unsigned long long)w->size);
}

static void meta_line(const struct file_search *fs, char *buf, size_t len)
{
	snprintf(buf, len, "labtree1 files=%zu bytes=%llu\n", fs->files,
		 (unsigned long long)fs->bytes);
}

static void copy_file(const char *from, const char *to)
{
	static unsigned char buf[COPY_CHUNK];
	int in = open(from, O_RDONLY), out;
	ssize_t n;

	if (in < 0)
		die(EXIT_LAB_RUNTIME, "cannot open %s: %s", from, strerror(errno));
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0)
		die(EXIT_LAB_RUNTIME, "cannot create %s: %s", to, strerror(errno));
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			die(EXIT_LAB_RUNTIME, "cannot write %s: %s", to, strerror(errno));
	if (n < 0)
		die(EXIT_LAB_RUNTIME, "cannot read %s: %s", from, strerror(errno));
	close(in);
	if (close(out))
		die(EXIT_LAB_RUNTIME, "cannot write %s: %s", to, strerror(errno));
}

/* mkdir -p of path's directories. */
static void make_parents(char *path)
{
	for (char *slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = 0;
		if (mkdir(path, 0755) && errno != EEXIST)
			die(EXIT_LAB_RUNTIME, "cannot create %s: %s", path, strerror(errno));
		*slash = '/';
	}
}

static void setup(struct wl *w)
{
	struct file_search *fs = w->priv;
	char *tmp = datafile_tmp_path(fs->tree), line[128];
	size_t cap = strlen(tmp) + strlen(fs->sources) + 4096;
	char *from = malloc(cap), *to = malloc(cap);

	if (!from || !to)
		die(EXIT_LAB_RUNTIME, "out of memory");
	select_files(w, fs);
	/* an aborted setup of another process with this pid left nothing here */
	if (datafile_remove_tree(tmp))
		die(EXIT_LAB_RUNTIME, "cannot remove %s", tmp);
	for (size_t i = 0; i < fs->files; i++) {
		const char *p = fs->manifest.files[i].path;

		snprintf(from, cap, "%s/linux/%s", fs->sources, p);
		snprintf(to, cap, "%s/%s", tmp, p);
		make_parents(to);
		copy_file(from, to);
	}
	sync();
	/* the old tree and record go, the new tree comes in, then its record */
	unlink(fs->meta);
	if (datafile_remove_tree(fs->tree))
		die(EXIT_LAB_RUNTIME, "cannot remove the old %s", fs->tree);
	if (rename(tmp, fs->tree))
		die(EXIT_LAB_RUNTIME, "cannot rename %s: %s", tmp, strerror(errno));
	meta_line(fs, line, sizeof(line));
	datafile_write_record(fs->meta, line);
	sync();
	free(tmp);
	free(from);
	free(to);
}

static void open_tree(struct wl *w)
{
	struct file_search *fs = w->priv;
	char want[128];

	if (!fs->manifest.n)
		select_files(w, fs);
	meta_line(fs, want, sizeof(want));
	datafile_check_record(fs->meta, fs->tree, want, sizeof(want));
}

static int counted(void *ctx, const char *path, uint64_t count)
{
	struct file_search *fs = ctx;
	const struct source_file *f = sources_find(&fs->manifest, path);
	size_t i = f ? (size_t)(f - fs->manifest.files) : 0;
	char where[96];

	if (!f || i >= fs->files) {
		snprintf(where, sizeof(where), "pass %llu: a file not set up", (unsigned long long)fs->pass);
		wl_verify_failed(fs->w, where, "pass %llu: rg found %s, which setup did not copy",
				 (unsigned long long)fs->pass, path);
	}
	if (count != f->count[fs->pattern]) {
		snprintf(where, sizeof(where), "pass %llu: %.60s", (unsigned long long)fs->pass, path);
		wl_verify_failed(fs->w, where,
				 "pass %llu: %llu matches of '%s' in %s, the host's ripgrep found %llu",
				 (unsigned long long)fs->pass, (unsigned long long)count,
				 sources_patterns[fs->pattern], path,
				 (unsigned long long)f->count[fs->pattern]);
	}
	fs->seen[i] = 1;
	fs->matches += count;
	return 0;
}

static double run(struct wl *w)
{
	struct file_search *fs = w->priv;

	fs->seen = malloc(fs->files);
	if (!fs->seen)
		die(EXIT_LAB_RUNTIME, "out of memory");
	wl_timer_start(w);
	for (fs->pass = 0; fs->pass < fs->passes; fs->pass++) {
		double t0 = clock_now();
		int rc;

		fs->pattern = (unsigned)(fs->pass % SOURCES_PATTERNS);
		memset(fs->seen, 0, fs->files);
		rc = rg_counts(fs->rg, sources_patterns[fs->pattern], fs->tree, counted, fs);
		if (rc < 0)
			exit(EXIT_LAB_RUNTIME);
		if (rc > 1)
			die(EXIT_LAB_RUNTIME, "rg exited with status %d", rc);
		for (size_t i = 0; i < fs->files; i++) {
			const struct source_file *f = &fs->manifest.files[i];
			char where[96];

			if (fs->seen[i] || !f->count[fs->pattern])
				continue;
			snprintf(where, sizeof(where), "pass %llu: %.60s",
				 (unsigned long long)fs->pass, f->path);
			wl_verify_failed(w, where,
					 "pass %llu: rg found no '%s' in %s, the host's found %llu",
					 (unsigned long long)fs->pass, sources_patterns[fs->pattern],
					 f->path, (unsigned long long)f->count[fs->pattern]);
		}
		if (clock_now() - t0 > fs->slowest_pass_s)
			fs->slowest_pass_s = clock_now() - t0;
	}
	return wl_timer_elapsed(w);
}

static void report(struct wl *w, double elapsed)
{
	struct file_search *fs = w->priv;

	result_u64(&w->res, "files", fs->files);
	result_u64(&w->res, "tree_bytes", fs->bytes);
	result_u64(&w->res, "matches", fs->matches);
	/* MiB: scaling by a power of two before or after the division is exact */
	result_rate(&w->res, "mib_per_s", (double)(fs->bytes * fs->passes) / (1 << 20), elapsed);
	result_num(&w->res, "slowest_pass_s", fs->slowest_pass_s);
}

static const struct wl_spec spec = {
	.name = "file-search",
	.about = "Debian's ripgrep over a part of the Linux source tree larger than RAM,\n"
		 "a pattern a pass; every file's match count is the host's ripgrep's.\n",
	.help = "  --size SIZE       the tree's bytes: the first files, in path order, of\n"
		"                    the Linux tree up to SIZE (bytes with K/M/G/T or N%\n"
		"                    of MemTotal; default 150%)\n"
		"  --dir DIR         data directory (default /data); the tree " TREE_NAME "\n"
		"  --passes N        rg runs, pass p with pattern p % 3 (default 3)\n"
		"  --sources DIR     the tree to copy and its manifest (default /sources,\n"
		"                    the guest's sources disk)\n"
		"  --rg PROGRAM      the ripgrep to run (default /usr/bin/rg)\n",
	.objects = NULL,
	.notes = "RESULT: files, tree_bytes, matches (all passes), mib_per_s (the tree's\n"
		 "bytes x passes over the timed phase), slowest_pass_s. --readahead off\n"
		 "is refused: ripgrep reads the files. No --emit-refs: rg makes the\n"
		 "references.\n",
	.flags = WL_SIZE | WL_FILES,
	.min_pages = 1,
	.options = options,
	.prepare = prepare,
	.setup = setup,
	.open = open_tree,
	.run = run,
	.report = report,
};

int main(int argc, char **argv)
{
	struct file_search fs = { .sources = "/sources", .rg = "/usr/bin/rg", .passes = 3 };
	int rc = wl_main(argc, argv, &spec, &fs);

	sources_free(&fs.manifest);
	free(fs.tree);
	free(fs.meta);
	free(fs.seen);
	return rc;
}
