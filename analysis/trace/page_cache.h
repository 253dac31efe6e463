/* The pages a trace saw added to the page cache, per file.
 *
 * filemap:mm_filemap_add_to_page_cache fires for every folio inserted
 * into a file's page cache: a read that missed, a readahead, a write to
 * a page not cached.  It names the file (device and inode), the folio's
 * first index and its order.  Per file, pages_added counts the pages of
 * every insertion and pages the distinct pages: pages_added - pages are
 * the pages read back after leaving the cache, the kernel's counterpart
 * of a model's misses beyond the first touch of each page.  Unlike
 * vmstat's workingset_refault_file, they count one file (the workload's
 * data) apart from the system's, and need no shadow entry to survive. */
#ifndef PAGE_CACHE_H
#define PAGE_CACHE_H

#include <stddef.h>

struct page_cache_file {
	unsigned int dev;		/* the kernel's dev_t: major << 20 | minor */
	unsigned long long ino;
	unsigned long long pages_added;
	unsigned long long pages;	/* distinct */
};

struct page_cache_key;

struct page_cache {
	struct page_cache_file *files;
	size_t nfiles, files_cap;
	struct page_cache_key *slots;	/* open addressing, a power of two */
	size_t nslots, used;
	size_t last;			/* the file of the previous insertion */
};

void page_cache_init(struct page_cache *pc);
void page_cache_free(struct page_cache *pc);

/* One insertion of 2^order pages from index.  Returns 0, or -1 when out
 * of memory or the order is absurd (above 20). */
int page_cache_insert(struct page_cache *pc, unsigned int dev, unsigned long long ino,
		      unsigned long long index, unsigned int order);

/* How many times the page (dev, ino, index) was inserted; 0: never. */
unsigned long long page_cache_adds(const struct page_cache *pc, unsigned int dev,
				   unsigned long long ino, unsigned long long index);

/* Sorts the files by device, then inode. */
void page_cache_sort(struct page_cache *pc);

#define PAGE_CACHE_MAJOR(dev) ((dev) >> 20)
#define PAGE_CACHE_MINOR(dev) ((dev) & ((1U << 20) - 1))

#endif
