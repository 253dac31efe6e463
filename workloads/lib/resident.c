#include "resident.h"

#include "clock.h"
#include "err.h"
#include "result.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void resident_pages(int fd, uint64_t bytes, const char *what, uint64_t *resident,
		    uint64_t *total)
{
	size_t sys_page = (size_t)sysconf(_SC_PAGESIZE);
	size_t vec_len = (size_t)((bytes + sys_page - 1) / sys_page);
	void *map;

	*resident = 0;
	*total = vec_len;
	if (!vec_len)
		return;
	map = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		die(EXIT_LAB_RUNTIME, "cannot map %s: %s", what, strerror(errno));
	*resident = resident_in_mapping(map, bytes, what);
	munmap(map, bytes);
}

uint64_t resident_in_mapping(const void *addr, uint64_t bytes, const char *what)
{
	size_t sys_page = (size_t)sysconf(_SC_PAGESIZE);
	size_t vec_len = (size_t)((bytes + sys_page - 1) / sys_page);
	uint64_t resident = 0;
	unsigned char *vec;

	if (!vec_len)
		return 0;
	vec = malloc(vec_len);
	if (!vec)
		die(EXIT_LAB_RUNTIME, "out of memory");
	if (mincore((void *)addr, bytes, vec))
		die(EXIT_LAB_RUNTIME, "mincore on %s failed: %s", what, strerror(errno));
	for (size_t i = 0; i < vec_len; i++)
		resident += vec[i] & 1;
	free(vec);
	return resident;
}

double resident_fraction(int fd, uint64_t bytes, const char *what)
{
	uint64_t resident, total;

	resident_pages(fd, bytes, what, &resident, &total);
	return total ? (double)resident / (double)total : 0;
}

void resident_sampler_init(struct resident_sampler *s, uint64_t pages)
{
	/* rounded up: at most RESIDENT_SAMPLES_PER_PASS samples a pass */
	s->every = (pages + RESIDENT_SAMPLES_PER_PASS - 1) / RESIDENT_SAMPLES_PER_PASS;
	if (!s->every)
		s->every = 1;
	s->sum = 0;
	s->samples = 0;
	s->seconds = 0;
}

static void sample_add(struct resident_sampler *s, uint64_t resident, double since)
{
	s->sum += resident;
	s->samples++;
	s->seconds += clock_now() - since;
}

void resident_sample_mapping(struct resident_sampler *s, const void *addr, uint64_t bytes,
			     const char *what)
{
	double t = clock_now();

	sample_add(s, resident_in_mapping(addr, bytes, what), t);
}

void resident_sample_file(struct resident_sampler *s, int fd, uint64_t bytes, const char *what)
{
	resident_sample_files(s, 1, &fd, &bytes, what);
}

void resident_sample_files(struct resident_sampler *s, size_t n, const int *fds,
			   const uint64_t *bytes, const char *what)
{
	double t = clock_now();
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t resident, total;

		resident_pages(fds[i], bytes[i], what, &resident, &total);
		sum += resident;
	}
	sample_add(s, sum, t);
}

void resident_sampler_report(const struct resident_sampler *s, struct result *res)
{
	if (!s->samples)
		return;
	result_u64(res, "resident_pages", (s->sum + s->samples / 2) / s->samples);
	result_u64(res, "resident_samples", s->samples);
}
