// SPDX-License-Identifier: GPL-2.0
/*
 * lab-lrucheck: do the LRU size counters match the pages on the LRU lists?
 * A policy switch or a policy that loses a folio (never puts it back, or
 * puts it on a list without counting it) leaves the two apart.
 *
 *   lab-lrucheck [KPAGEFLAGS VMSTAT [SYSFS]]
 *                (default /proc/kpageflags /proc/vmstat /sys)
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
 * On a NUMA guest each node is checked too (without arguments, or with
 * a SYSFS root): its pages by PG_lru, over the pfns of its memory blocks
 * (SYSFS/devices/system/node/nodeN/memoryM, of block_size_bytes in
 * SYSFS/devices/system/memory), against the LRU counters of
 * nodeN/vmstat. A folio moved onto another node's list under the wrong
 * lock leaves two nodes apart while the sums still agree. The pass
 * prints "nodes_checked N", the nodes compared (none where a memory
 * block holds two nodes' pages: sysfs does not say which page is whose),
 * and "nodes_differing N", the nodes whose two counts differ.
 *
 * Exit: 0 the counts agree, 1 they differ in every pass, 2 bad usage,
 * 3 a file unreadable.
 */
#define _GNU_SOURCE
#include <dirent.h>
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
#define MAX_NODES		64

/* Whether the page at @f is part of a folio on an LRU list. */
struct lru_walk {
	bool in_lru_folio;
	long long n;
};

static void lru_walk_page(struct lru_walk *w, uint64_t f)
{
	if (f & (1ULL << KPF_COMPOUND_TAIL)) {
		w->n += w->in_lru_folio;
		return;
	}
	w->in_lru_folio = (f & (1ULL << KPF_LRU)) != 0;
	w->n += w->in_lru_folio;
	if (!(f & (1ULL << KPF_COMPOUND_HEAD)))
		w->in_lru_folio = false;
}

/* Pages whose folio is on an LRU list; -1 when the file is unreadable. */
static long long flagged_pages(const char *path)
{
	uint64_t buf[4096];
	struct lru_walk w = { 0 };
	ssize_t got;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((got = read(fd, buf, sizeof(buf))) > 0)
		for (size_t i = 0; i < (size_t)got / sizeof(*buf); i++)
			lru_walk_page(&w, buf[i]);
	close(fd);
	return got < 0 ? -1 : w.n;
}

/* Pages on an LRU list among the pfns [@start, @end); -1 on a read error. */
static long long flagged_range(int fd, uint64_t start, uint64_t end)
{
	uint64_t buf[4096];
	struct lru_walk w = { 0 };

	while (start < end) {
		size_t want = end - start < 4096 ? end - start : 4096;
		ssize_t got = pread(fd, buf, want * sizeof(*buf),
				    (off_t)(start * sizeof(*buf)));

		if (got < 0)
			return -1;
		if (got == 0)
			break;
		for (size_t i = 0; i < (size_t)got / sizeof(*buf); i++)
			lru_walk_page(&w, buf[i]);
		start += (size_t)got / sizeof(*buf);
	}
	return w.n;
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

/* The pages of a memory block, from block_size_bytes (hex); 0 on error. */
static uint64_t block_pages(const char *sysfs)
{
	unsigned long long bytes = 0;
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/devices/system/memory/block_size_bytes", sysfs);
	f = fopen(path, "r");

	if (!f)
		return 0;
	if (fscanf(f, "%llx", &bytes) != 1)
		bytes = 0;
	fclose(f);
	return bytes / (uint64_t)sysconf(_SC_PAGESIZE);
}

#define MAX_BLOCKS		4096

/* A node's memory blocks, read from SYSFS/devices/system/node/nodeN. */
struct node_blocks {
	int node;
	size_t n;
	unsigned long long block[MAX_BLOCKS];
};

/* @nb's blocks; false when the directory is missing or lists too many. */
static bool read_node_blocks(const char *sysfs, int node, struct node_blocks *nb)
{
	char path[4096];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/devices/system/node/node%d", sysfs, node);
	d = opendir(path);
	if (!d)
		return false;
	nb->node = node;
	nb->n = 0;
	while ((e = readdir(d))) {
		unsigned long long block;
		char end;

		if (sscanf(e->d_name, "memory%llu%c", &block, &end) != 1)
			continue;
		if (nb->n == MAX_BLOCKS) {
			closedir(d);
			return false;
		}
		nb->block[nb->n++] = block;
	}
	closedir(d);
	return true;
}

/* Whether a memory block of @a is also one of @b's. */
static bool blocks_shared(const struct node_blocks *a, const struct node_blocks *b)
{
	for (size_t i = 0; i < a->n; i++)
		for (size_t j = 0; j < b->n; j++)
			if (a->block[i] == b->block[j])
				return true;
	return false;
}

/*
 * Compare each node's pages on the LRU lists (by PG_lru, over its memory
 * blocks) with its LRU counters: sets *@checked to the nodes compared and
 * returns how many differ, or -1 when a file is unreadable. No node is
 * compared on a machine of one node, one without memory blocks in sysfs,
 * or one where a block holds the pages of two nodes (which node a page
 * of such a block is on, sysfs does not say).
 */
static int nodes_differing(const char *kpageflags, const char *sysfs, int *checked)
{
	static struct node_blocks nodes[MAX_NODES];
	uint64_t per_block = block_pages(sysfs);
	int node, nr = 0, differ = 0;
	int fd;

	*checked = 0;
	if (!per_block)
		return 0;
	for (node = 0; node < MAX_NODES; node++)
		if (read_node_blocks(sysfs, node, &nodes[nr]))
			nr++;
	if (nr < 2)
		return 0;
	for (int a = 0; a < nr; a++)
		for (int b = a + 1; b < nr; b++)
			if (blocks_shared(&nodes[a], &nodes[b]))
				return 0;
	fd = open(kpageflags, O_RDONLY);
	if (fd < 0)
		return -1;
	for (int k = 0; k < nr; k++) {
		char path[4096];
		long long flagged = 0, counted;

		for (size_t i = 0; i < nodes[k].n && flagged >= 0; i++) {
			long long n = flagged_range(fd, nodes[k].block[i] * per_block,
						    (nodes[k].block[i] + 1) * per_block);

			flagged = n < 0 ? -1 : flagged + n;
		}
		snprintf(path, sizeof(path), "%s/devices/system/node/node%d/vmstat", sysfs,
			 nodes[k].node);
		counted = counted_pages(path);
		if (flagged < 0 || counted < 0) {
			close(fd);
			return -1;
		}
		differ += flagged != counted;
	}
	close(fd);
	*checked = nr;
	return differ;
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
	const char *sysfs = "/sys";
	long long best_flagged = 0, best_counted = 0;
	int pass, best_differ = 0, best_checked = 0;

	if (argc == 3 || argc == 4) {
		kpageflags = argv[1];
		vmstat = argv[2];
		sysfs = argc == 4 ? argv[3] : NULL;
	} else if (argc != 1) {
		fprintf(stderr, "usage: lab-lrucheck [KPAGEFLAGS VMSTAT [SYSFS]]\n");
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
		int checked = 0;
		int differ = sysfs ? nodes_differing(kpageflags, sysfs, &checked) : 0;

		if (flagged < 0 || counted < 0 || differ < 0) {
			fprintf(stderr, "lab-lrucheck: cannot read %s%s\n",
				flagged < 0 ? kpageflags : counted < 0 ? vmstat : sysfs,
				flagged < 0 || counted < 0 ? "" : "/devices/system/node");
			return 3;
		}
		if (pass == 1 || llabs(flagged - counted) + differ <
				 llabs(best_flagged - best_counted) + best_differ) {
			best_flagged = flagged;
			best_counted = counted;
			best_differ = differ;
			best_checked = checked;
		}
		if (flagged == counted && !differ)
			break;
	}
	printf("flagged %lld\ncounted %lld\npasses %d\nnodes_checked %d\nnodes_differing %d\n",
	       best_flagged, best_counted, pass > PASSES ? PASSES : pass, best_checked,
	       best_differ);
	return best_flagged == best_counted && !best_differ ? 0 : 1;
}
