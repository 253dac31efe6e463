// SPDX-License-Identifier: GPL-2.0
/*
 * lab-lrucheck: do the LRU size counters match the pages on the LRU lists?
 * A policy switch or a policy that loses a folio (never puts it back, or
 * puts it on a list without counting it) leaves the two apart.
 *
 *   lab-lrucheck [KPAGEFLAGS VMSTAT]   (default /proc/kpageflags /proc/vmstat)
 *
 * "flagged" counts the pages whose folio has PG_lru, from /proc/kpageflags
 * (KPF_LRU is set on a compound page's head only, so a head counts with
 * its tail pages); "counted" is the sum of vmstat's nr_inactive_anon,
 * nr_active_anon, nr_inactive_file, nr_active_file and nr_unevictable.
 * Both leave out folios isolated from the lists and those waiting in the
 * per-CPU lru_add batches, so on a quiet system they are equal once the
 * per-CPU counter deltas are folded in: without arguments, each pass
 * first writes /proc/sys/vm/stat_refresh, which does that. The two
 * files are read one after the other while the system runs, so a page
 * added in between shows as a difference: the check is repeated up to
 * five times until one pass agrees, and the pass with the smallest
 * difference is printed ("flagged N", "counted N", "passes N"). A lost
 * folio shows in every pass.
 *
 * Exit: 0 the counts agree, 1 they differ in every pass, 2 bad usage,
 * 3 a file unreadable.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KPF_LRU			5
#define KPF_COMPOUND_HEAD	15
#define KPF_COMPOUND_TAIL	16
#define PASSES			5

/* Pages whose folio is on an LRU list; -1 when the file is unreadable. */
static long long flagged_pages(const char *path)
{
	uint64_t buf[4096];
	long long n = 0;
	bool in_lru_folio = false;
	ssize_t got;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((got = read(fd, buf, sizeof(buf))) > 0) {
		for (size_t i = 0; i < (size_t)got / sizeof(*buf); i++) {
			uint64_t f = buf[i];

			if (f & (1ULL << KPF_COMPOUND_TAIL)) {
				n += in_lru_folio;
				continue;
			}
			in_lru_folio = (f & (1ULL << KPF_LRU)) != 0;
			n += in_lru_folio;
			if (!(f & (1ULL << KPF_COMPOUND_HEAD)))
				in_lru_folio = false;
		}
	}
	close(fd);
	return got < 0 ? -1 : n;
}

/* The LRU size counters' sum; -1 when the file is unreadable or lacks one. */
static long long counted_pages(const char *path)
{
	static const char *const names[] = {
		"nr_inactive_anon", "nr_active_anon", "nr_inactive_file",
		"nr_active_file", "nr_unevictable",
	};
	const size_t nnames = sizeof(names) / sizeof(*names);
	char name[64];
	long long v, sum = 0;
	size_t found = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", name, &v) == 2) {
		for (size_t i = 0; i < nnames; i++) {
			if (strcmp(name, names[i]) == 0) {
				sum += v;
				found++;
			}
		}
	}
	fclose(f);
	return found == nnames ? sum : -1;
}

/* Folds every CPU's vmstat deltas into the global counters. */
static int refresh_counters(void)
{
	int fd = open("/proc/sys/vm/stat_refresh", O_WRONLY);
	int ok = fd >= 0 && write(fd, "1\n", 2) == 2;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	const char *kpageflags = "/proc/kpageflags", *vmstat = "/proc/vmstat";
	long long best_flagged = 0, best_counted = 0;
	int pass;

	if (argc == 3) {
		kpageflags = argv[1];
		vmstat = argv[2];
	} else if (argc != 1) {
		fprintf(stderr, "usage: lab-lrucheck [KPAGEFLAGS VMSTAT]\n");
		return 2;
	}
	for (pass = 1; pass <= PASSES; pass++) {
		if (argc == 1 && refresh_counters() != 0) {
			fprintf(stderr, "lab-lrucheck: cannot write /proc/sys/vm/stat_refresh: %s\n",
				strerror(errno));
			return 3;
		}
		long long flagged = flagged_pages(kpageflags);
		long long counted = counted_pages(vmstat);

		if (flagged < 0 || counted < 0) {
			fprintf(stderr, "lab-lrucheck: cannot read %s\n",
				flagged < 0 ? kpageflags : vmstat);
			return 3;
		}
		if (pass == 1 || llabs(flagged - counted) < llabs(best_flagged - best_counted)) {
			best_flagged = flagged;
			best_counted = counted;
		}
		if (flagged == counted)
			break;
	}
	printf("flagged %lld\ncounted %lld\npasses %d\n", best_flagged, best_counted,
	       pass > PASSES ? PASSES : pass);
	return best_flagged == best_counted ? 0 : 1;
}
