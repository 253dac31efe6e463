// SPDX-License-Identifier: GPL-2.0
/*
 * lab-coldcheck: do the folios MADV_COLD deactivates stay inactive?
 *
 *   lab-coldcheck [MIB]   (default 16)
 *
 * Maps MIB of anonymous memory, writes every page, and reads each page's
 * flags through /proc/self/pagemap and /proc/kpageflags: "active_before"
 * counts the pages on an active list. Then madvise(MADV_COLD) over the
 * region, which moves every active folio to the inactive list
 * (lru_deactivate_fn(): PG_active cleared, lruvec_add_folio()), and the
 * flags again: "active_after". The kernel chose that list; a policy that
 * takes the move for a new folio's arrival (clockpro's warm-up, say) makes
 * them active again.
 *
 * MADV_COLD queues the folios in per-CPU batches of up to PAGEVEC_SIZE - 1
 * (14) before it moves them, so up to that many a CPU may still be active
 * when the flags are read: "allowed" is 14 times the online CPUs.
 *
 * Prints "pages N", "active_before N", "active_after N", "allowed N".
 * Exit: 0 active_after <= allowed, 1 more, 2 bad usage, 3 a system call
 * or a file failed (root is needed for the pfns).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define KPF_ACTIVE		6
#define PM_PRESENT		(1ULL << 63)
#define PM_PFN_MASK		((1ULL << 55) - 1)
#define PENDING_PER_CPU		14

static int fail(const char *what)
{
	fprintf(stderr, "lab-coldcheck: %s: %s\n", what, strerror(errno));
	return 3;
}

/* Pages of [p, p + pages) with PG_active; -1 on a read error. */
static long count_active(int pagemap, int kpageflags, const char *p, long pages,
			 long page_size)
{
	long i, active = 0;

	for (i = 0; i < pages; i++) {
		uint64_t entry, flags;
		off_t at = (off_t)((uintptr_t)(p + i * page_size) / page_size) * 8;

		if (pread(pagemap, &entry, 8, at) != 8)
			return -1;
		if (!(entry & PM_PRESENT) || !(entry & PM_PFN_MASK)) {
			errno = EPERM;
			return -1;
		}
		if (pread(kpageflags, &flags, 8, (off_t)(entry & PM_PFN_MASK) * 8) != 8)
			return -1;
		active += (flags >> KPF_ACTIVE) & 1;
	}
	return active;
}

int main(int argc, char **argv)
{
	long page_size = sysconf(_SC_PAGESIZE), cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long mib = 16, pages, before, after, allowed, i;
	int pagemap, kpageflags;
	char *end, *p;

	if (argc > 2 || (argc == 2 && ((mib = strtol(argv[1], &end, 10)) < 1 || *end ||
				       mib > 4096))) {
		fprintf(stderr, "usage: lab-coldcheck [MIB] (1 to 4096, default 16)\n");
		return 2;
	}
	pages = mib * (1024 * 1024 / page_size);
	allowed = PENDING_PER_CPU * (cpus > 0 ? cpus : 1);
	pagemap = open("/proc/self/pagemap", O_RDONLY);
	if (pagemap < 0)
		return fail("/proc/self/pagemap");
	kpageflags = open("/proc/kpageflags", O_RDONLY);
	if (kpageflags < 0)
		return fail("/proc/kpageflags");
	p = mmap(NULL, (size_t)pages * page_size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return fail("mmap");
	for (i = 0; i < pages; i++)
		p[i * page_size] = (char)(i | 1);

	before = count_active(pagemap, kpageflags, p, pages, page_size);
	if (before < 0)
		return fail("reading the region's page flags (pagemap needs root)");
	if (madvise(p, (size_t)pages * page_size, MADV_COLD))
		return fail("madvise(MADV_COLD)");
	after = count_active(pagemap, kpageflags, p, pages, page_size);
	if (after < 0)
		return fail("reading the region's page flags again");

	printf("pages %ld\nactive_before %ld\nactive_after %ld\nallowed %ld\n",
	       pages, before, after, allowed);
	return after <= allowed ? 0 : 1;
}
