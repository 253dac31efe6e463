/*
 * cyclic-file: "cyclic access pattern with file backed memory" (2006
 * series). Reads a stamped file larger than RAM in the same page order on
 * every pass, with pread or through a shared read-only mapping, and checks
 * every page's stamp on every read.
 */
#include "driver.h"
#include "err.h"
#include "resident.h"
#include "stamp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define FILE_NAME "cyclic-file.dat"

enum mode { MODE_READ, MODE_MMAP };

struct cyclic_file {
	uint64_t passes;
	enum mode mode;
	char *path;
	int fd;
};

static const struct wl_option options[] = {
	wl_opt_positive("passes", struct cyclic_file, passes),
	wl_opt_choice("mode", struct cyclic_file, mode, WL_CHOICES("read", "mmap")),
	{ 0 },
};

static void prepare(struct wl *w)
{
	struct cyclic_file *cf = w->priv;

	wl_procs_at_most(w, w->size / LAB_PAGE_SIZE, "the file's %llu pages");

	cf->path = wl_path(w, FILE_NAME);
	result_str(&w->res, "mode", cf->mode == MODE_MMAP ? "mmap" : "read");
	result_u64(&w->res, "size_bytes", w->size);
	result_u64(&w->res, "pages", w->size / LAB_PAGE_SIZE);
	result_u64(&w->res, "passes", cf->passes);
	result_u64(&w->res, "seed", w->seed);
}

static void setup(struct wl *w)
{
	struct cyclic_file *cf = w->priv;

	wl_create_data(w, cf->path, w->size / LAB_PAGE_SIZE, 0);
}

static void open_data(struct wl *w)
{
	struct cyclic_file *cf = w->priv;

	cf->fd = wl_open_data(w, cf->path, w->size / LAB_PAGE_SIZE, 0, O_RDONLY);
}

static double run(struct wl *w)
{
	struct cyclic_file *cf = w->priv;
	uint64_t first, pages;
	const unsigned char *map = NULL;
	unsigned char *buf = NULL;
	double elapsed;

	if (cf->mode == MODE_MMAP)
		map = wl_map(w, cf->fd, w->size, "data");
	else if (posix_memalign((void **)&buf, LAB_PAGE_SIZE, LAB_PAGE_SIZE))
		die(EXIT_LAB_RUNTIME, "out of memory");

	/* this process's pages of the file: first .. first + pages - 1 */
	wl_share(w, w->size / LAB_PAGE_SIZE, &first, &pages);
	resident_sampler_init(&w->resident, pages, w->resident_samples);
	wl_timer_start(w);
	for (uint64_t pass = 0; pass < cf->passes; pass++) {
		for (uint64_t page = first; page < first + pages; page++) {
			const unsigned char *p;
			long bad;
			char where[96];

			if (resident_sample_due(&w->resident, pass, page))
				resident_sample_file(&w->resident, cf->fd, w->size, cf->path);
			wl_ref(w, 0, page);
			if (map) {
				p = map + page * LAB_PAGE_SIZE;
			} else {
				ssize_t n = pread(cf->fd, buf, LAB_PAGE_SIZE,
						  (off_t)(page * LAB_PAGE_SIZE));

				if (n != (ssize_t)LAB_PAGE_SIZE)
					die(EXIT_LAB_RUNTIME, "read of page %llu failed: %s",
					    (unsigned long long)page,
					    n < 0 ? strerror(errno) : "short read");
				p = buf;
			}
			bad = stamp_mismatch(p, stamp_key(w->seed, 0, page, 0));
			if (bad < 0)
				continue;
			snprintf(where, sizeof(where), "page %llu pass %llu offset %ld",
				 (unsigned long long)page, (unsigned long long)pass, bad);
			wl_verify_failed(w, where,
					 "verification failed at page %llu pass %llu (byte offset %ld): "
					 "file contents differ from the stamp written at setup",
					 (unsigned long long)page, (unsigned long long)pass, bad);
		}
	}
	elapsed = wl_timer_elapsed(w) - w->resident.seconds;
	if (map)
		munmap((void *)map, w->size);
	free(buf);
	return elapsed;
}

static void report(struct wl *w, double elapsed)
{
	struct cyclic_file *cf = w->priv;

	result_rate(&w->res, "pages_per_s", w->size / LAB_PAGE_SIZE * cf->passes, elapsed);
}

static const struct wl_spec spec = {
	.name = "cyclic-file",
	.about = "Read every page of a stamped file in a fixed cyclic order (page 0,\n"
		 "1, ..., N-1, repeat) for several passes, verifying every page.\n",
	.help = "  --size SIZE       file size: bytes with K/M/G/T suffix or N% of\n"
		"                    MemTotal (default 150%); rounded down to 4 KiB\n"
		"  --dir DIR         data directory (default /data); file " FILE_NAME "\n"
		"  --mode MODE       read (pread, default) or mmap (shared read-only map)\n"
		"  --passes N        passes over the file (default 3)\n"
		"  --seed N          stamp seed (default 1); run needs setup's seed\n",
	.objects = "object 0, the file",
	.notes = "With --procs N each process loops over its own share of the file\n"
		 "(about SIZE / N contiguous pages).\n",
	.flags = WL_SIZE | WL_FILES | WL_RESIDENT | WL_PROCS,
	.options = options,
	.prepare = prepare,
	.setup = setup,
	.open = open_data,
	.run = run,
	.report = report,
};

int main(int argc, char **argv)
{
	struct cyclic_file cf = { .passes = 3, .mode = MODE_READ };
	int rc = wl_main(argc, argv, &spec, &cf);

	free(cf.path);
	return rc;
}
