#include "resident.h"

#include "clock.h"
#include "err.h"
#include "result.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
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

void resident_sampler_init(struct resident_sampler *s, uint64_t pages, unsigned per_pass)
{
	*s = (struct resident_sampler){ 0 };
	/* 0: no samples; else rounded up, at most per_pass samples a pass */
	if (!per_pass)
		return;
	s->every = (pages + per_pass - 1) / per_pass;
	if (!s->every)
		s->every = 1;
}

/* nr_isolated_anon + nr_isolated_file, or -1 when /proc/vmstat says neither. */
static int64_t isolated_now(void)
{
	FILE *f = fopen("/proc/vmstat", "r");
	char name[64];
	unsigned long long v;
	int64_t sum = 0;
	int found = 0;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %llu", name, &v) == 2)
		if (!strcmp(name, "nr_isolated_anon") || !strcmp(name, "nr_isolated_file")) {
			sum += (int64_t)v;
			found++;
		}
	fclose(f);
	return found ? sum : -1;
}

static void sample_add(struct resident_sampler *s, uint64_t resident, double since)
{
	int64_t isolated = isolated_now();

	if (!s->samples || resident < s->min)
		s->min = resident;
	if (resident > s->max)
		s->max = resident;
	s->sum += resident;
	s->sum_sq += (double)resident * (double)resident;
	s->samples++;
	if (isolated >= 0) {
		s->isolated_sum += (uint64_t)isolated;
		s->isolated_samples++;
	}
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
	double n = (double)s->samples, mean, var;

	if (!s->samples)
		return;
	mean = (double)s->sum / n;
	/* sample variance; rounding can take it a hair below 0 */
	var = s->samples > 1 ? (s->sum_sq - n * mean * mean) / (n - 1) : 0;
	result_u64(res, "resident_pages", (s->sum + s->samples / 2) / s->samples);
	result_u64(res, "resident_samples", s->samples);
	result_u64(res, "resident_min", s->min);
	result_u64(res, "resident_max", s->max);
	result_num(res, "resident_sd", var > 0 ? sqrt(var) : 0);
	if (s->isolated_samples)
		result_num(res, "isolated_pages",
			   (double)s->isolated_sum / (double)s->isolated_samples);
}
