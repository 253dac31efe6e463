/*
 * cyclic-anon: "cyclic access pattern with anonymous memory" (2006 series).
 * Loops over an anonymous region larger than RAM in the same page order on
 * every pass, LRU's worst case. Each visit checks the stamp the previous
 * pass left (zero on the first pass) and writes this pass's stamp, so a page
 * lost or corrupted by swap is caught (exit 3) rather than timed.
 */
#include "driver.h"
#include "err.h"
#include "resident.h"
#include "stamp.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

struct cyclic_anon {
	uint64_t passes;
};

static const struct wl_option options[] = {
	wl_opt_positive("passes", struct cyclic_anon, passes),
	{ 0 },
};

static void prepare(struct wl *w)
{
	struct cyclic_anon *ca = w->priv;

	wl_procs_at_most(w, w->size / LAB_PAGE_SIZE, "the region's %llu pages");

	result_u64(&w->res, "size_bytes", w->size);
	result_u64(&w->res, "pages", w->size / LAB_PAGE_SIZE);
	result_u64(&w->res, "passes", ca->passes);
	result_u64(&w->res, "seed", w->seed);
}

static double run(struct wl *w)
{
	struct cyclic_anon *ca = w->priv;
	uint64_t first, pages;
	unsigned char *mem;

	/* this process's pages of the region: first .. first + pages - 1 */
	wl_share(w, w->size / LAB_PAGE_SIZE, &first, &pages);
	mem = mmap(NULL, pages * LAB_PAGE_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mem == MAP_FAILED)
		die(EXIT_LAB_RUNTIME, "cannot map %llu bytes: %s",
		    (unsigned long long)(pages * LAB_PAGE_SIZE), strerror(errno));
	resident_sampler_init(&w->resident, pages, w->resident_samples);
	wl_timer_start(w);
	for (uint64_t pass = 0; pass < ca->passes; pass++) {
		for (uint64_t page = first; page < first + pages; page++) {
			unsigned char *p = mem + (page - first) * LAB_PAGE_SIZE;
			long bad;
			char where[96];

			if (resident_sample_due(&w->resident, pass, page))
				resident_sample_mapping(&w->resident, mem, w->size, "the region");
			wl_ref(w, 0, page);
			if (pass == 0)
				bad = zero_mismatch(p);
			else
				bad = stamp_mismatch(p, stamp_key(w->seed, 0, page, pass - 1));
			if (bad >= 0) {
				snprintf(where, sizeof(where), "page %llu pass %llu offset %ld",
					 (unsigned long long)page, (unsigned long long)pass, bad);
				wl_verify_failed(w, where,
						 "verification failed at page %llu pass %llu (byte offset %ld): "
						 "the page lost the stamp written by the previous pass",
						 (unsigned long long)page, (unsigned long long)pass, bad);
			}
			stamp_fill(p, stamp_key(w->seed, 0, page, pass));
		}
	}
	return wl_timer_elapsed(w) - w->resident.seconds;
}

static void report(struct wl *w, double elapsed)
{
	struct cyclic_anon *ca = w->priv;

	result_rate(&w->res, "pages_per_s", w->size / LAB_PAGE_SIZE * ca->passes, elapsed);
}

static const struct wl_spec spec = {
	.name = "cyclic-anon",
	.about = "Visit every page of an anonymous mapping in a fixed cyclic order\n"
		 "(page 0, 1, ..., N-1, repeat) for several passes, verifying and\n"
		 "rewriting a per-page stamp on every visit. Setup is a no-op.\n",
	.help = "  --size SIZE       region size: bytes with K/M/G/T suffix or N% of\n"
		"                    MemTotal (default 150%); rounded down to 4 KiB\n"
		"  --passes N        passes over the region (default 3)\n"
		"  --seed N          stamp seed (default 1)\n"
		"  --dir DIR         accepted for uniformity and ignored (no files)\n",
	.objects = "object 0, the region",
	.notes = "With --procs N each process loops over its own share of the region\n"
		 "(N mappings of about SIZE / N), stamped with the page's number in\n"
		 "the whole region.\n",
	.flags = WL_SIZE | WL_RESIDENT | WL_PROCS,
	.options = options,
	.prepare = prepare,
	.run = run,
	.report = report,
};

int main(int argc, char **argv)
{
	struct cyclic_anon ca = { .passes = 3 };

	return wl_main(argc, argv, &spec, &ca);
}
