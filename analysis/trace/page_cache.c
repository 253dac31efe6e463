#define _POSIX_C_SOURCE 200809L
#include "page_cache.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct page_cache_key {
	unsigned long long ino, index;
	unsigned int dev;
	unsigned int used;
	unsigned long long adds; /* insertions of this page */
};

void page_cache_init(struct page_cache *pc)
{
	memset(pc, 0, sizeof(*pc));
}

void page_cache_free(struct page_cache *pc)
{
	free(pc->files);
	free(pc->slots);
	page_cache_init(pc);
}

static uint64_t hash_key(unsigned int dev, unsigned long long ino, unsigned long long index)
{
	uint64_t h = index * 0x9e3779b97f4a7c15ULL;

	h ^= (ino + 0x632be59bd9b4e019ULL) * 0xc2b2ae3d27d4eb4fULL;
	h ^= (uint64_t)dev * 0x165667b19e3779f9ULL;
	return h ^ (h >> 29);
}

/* The slot of the key, or the empty slot where it belongs. */
static struct page_cache_key *slot_of(struct page_cache_key *slots, size_t nslots, unsigned int dev,
				      unsigned long long ino, unsigned long long index)
{
	size_t i = hash_key(dev, ino, index) & (nslots - 1);

	while (slots[i].used && !(slots[i].dev == dev && slots[i].ino == ino && slots[i].index == index))
		i = (i + 1) & (nslots - 1);
	return &slots[i];
}

static int grow_slots(struct page_cache *pc)
{
	size_t n = pc->nslots ? pc->nslots * 2 : 4096;
	struct page_cache_key *slots = calloc(n, sizeof(*slots));

	if (slots == NULL)
		return -1;
	for (size_t i = 0; i < pc->nslots; i++) {
		const struct page_cache_key *k = &pc->slots[i];
		if (k->used)
			*slot_of(slots, n, k->dev, k->ino, k->index) = *k;
	}
	free(pc->slots);
	pc->slots = slots;
	pc->nslots = n;
	return 0;
}

static struct page_cache_file *file_of(struct page_cache *pc, unsigned int dev,
				       unsigned long long ino)
{
	if (pc->last < pc->nfiles && pc->files[pc->last].dev == dev && pc->files[pc->last].ino == ino)
		return &pc->files[pc->last];
	for (size_t i = 0; i < pc->nfiles; i++) {
		if (pc->files[i].dev == dev && pc->files[i].ino == ino) {
			pc->last = i;
			return &pc->files[i];
		}
	}
	if (pc->nfiles == pc->files_cap) {
		size_t cap = pc->files_cap ? pc->files_cap * 2 : 16;
		struct page_cache_file *f = realloc(pc->files, cap * sizeof(*f));
		if (f == NULL)
			return NULL;
		pc->files = f;
		pc->files_cap = cap;
	}
	pc->last = pc->nfiles++;
	pc->files[pc->last] = (struct page_cache_file){ .dev = dev, .ino = ino };
	return &pc->files[pc->last];
}

int page_cache_insert(struct page_cache *pc, unsigned int dev, unsigned long long ino,
		      unsigned long long index, unsigned int order)
{
	struct page_cache_file *f;

	if (order > 20 || (f = file_of(pc, dev, ino)) == NULL)
		return -1;
	for (unsigned long long i = 0; i < 1ULL << order; i++) {
		/* at most half full, so that probes stay short */
		if (2 * (pc->used + 1) > pc->nslots && grow_slots(pc) != 0)
			return -1;
		struct page_cache_key *k = slot_of(pc->slots, pc->nslots, dev, ino, index + i);
		f->pages_added++;
		if (!k->used) {
			*k = (struct page_cache_key){ .ino = ino, .index = index + i, .dev = dev, .used = 1 };
			pc->used++;
			f->pages++;
		}
		k->adds++;
	}
	return 0;
}

unsigned long long page_cache_adds(const struct page_cache *pc, unsigned int dev,
				   unsigned long long ino, unsigned long long index)
{
	const struct page_cache_key *k;

	if (pc->nslots == 0)
		return 0;
	k = slot_of(pc->slots, pc->nslots, dev, ino, index);
	return k->used ? k->adds : 0;
}

static int by_dev_ino(const void *a, const void *b)
{
	const struct page_cache_file *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

void page_cache_sort(struct page_cache *pc)
{
	if (pc->nfiles > 1)
		qsort(pc->files, pc->nfiles, sizeof(*pc->files), by_dev_ino);
	pc->last = 0;
}
