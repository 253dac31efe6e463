/* How much of a file or a mapping is in memory, by mincore(). */
#ifndef LAB_RESIDENT_H
#define LAB_RESIDENT_H

#include <stddef.h>
#include <stdint.h>

struct result;

/*
 * Resident and total pages of the first bytes of fd, counted with
 * mincore() on a fresh shared mapping (which reads nothing: mincore looks
 * at the page cache, not at the mapping's page tables). Exits 1 naming
 * what on failure.
 */
void resident_pages(int fd, uint64_t bytes, const char *what, uint64_t *resident,
		    uint64_t *total);

/* resident / total for one file, 0 for an empty one. */
double resident_fraction(int fd, uint64_t bytes, const char *what);

/*
 * Resident pages of an existing mapping [addr, addr + bytes): pages with a
 * present pte, or in the page cache or the swap cache. Exits 1 naming
 * what on failure.
 */
uint64_t resident_in_mapping(const void *addr, uint64_t bytes, const char *what);

/*
 * The cache a loop over a data set really had: its resident pages sampled
 * a number of times per pass (RESIDENT_SAMPLES_PER_PASS unless the
 * workload's --resident-samples says otherwise) from the second pass on
 * (the first fills memory), averaged. A model replayed at this size sees
 * the memory the kernel gave the data, not MemAvailable, which also
 * counts the free pages reclaim keeps above its watermarks. The spread of
 * the samples and the pages reclaim held isolated from the LRU lists at
 * each (/proc/vmstat) say how far the cache moved around that mean. The
 * time spent sampling (s->seconds) is to be left out of the timed phase.
 */
#define RESIDENT_SAMPLES_PER_PASS 8
#define RESIDENT_SAMPLES_MAX 4096

struct resident_sampler {
	uint64_t every;   /* references between samples */
	uint64_t sum;     /* of the samples' resident pages */
	double sum_sq;    /* of their squares, for the spread */
	uint64_t min, max;
	uint64_t samples;
	uint64_t isolated_sum; /* nr_isolated_anon + nr_isolated_file */
	uint64_t isolated_samples;
	double seconds;   /* spent sampling: not the workload's time */
};

/* Up to per_pass samples (1 to RESIDENT_SAMPLES_MAX) in each pass of pages;
 * none with per_pass 0 (--procs N > 1). */
void resident_sampler_init(struct resident_sampler *s, uint64_t pages, unsigned per_pass);

/* Whether the reference to page of pass is a sampling point. */
static inline int resident_sample_due(const struct resident_sampler *s, uint64_t pass,
				      uint64_t page)
{
	return pass > 0 && s->every && page % s->every == 0;
}

/*
 * A run without passes (a trace, random lookups) is taken as two halves
 * of steps / 2 steps: the first fills memory, the second is sampled.
 * Initialise with resident_sampler_init(s, resident_half(steps)).
 */
static inline uint64_t resident_half(uint64_t steps)
{
	return steps / 2 ? steps / 2 : 1;
}

static inline int resident_sample_due_in_run(const struct resident_sampler *s, uint64_t step,
					     uint64_t steps)
{
	uint64_t half = resident_half(steps);

	return resident_sample_due(s, step / half, step % half);
}

/* One sample: the resident pages of a mapping, or of a file's first bytes. */
void resident_sample_mapping(struct resident_sampler *s, const void *addr, uint64_t bytes,
			     const char *what);
void resident_sample_file(struct resident_sampler *s, int fd, uint64_t bytes, const char *what);

/* One sample over n files (fds[i], its first bytes[i]): their sum. */
void resident_sample_files(struct resident_sampler *s, size_t n, const int *fds,
			   const uint64_t *bytes, const char *what);

/*
 * When there were samples: resident_pages (the mean), resident_samples,
 * resident_min, resident_max, resident_sd (the samples' standard
 * deviation) and, where /proc/vmstat could be read, isolated_pages (the
 * mean of the pages isolated from the LRU lists at the samples).
 */
void resident_sampler_report(const struct resident_sampler *s, struct result *res);

#endif
