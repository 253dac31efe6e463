#include "resident.h"

#include "err.h"

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
	unsigned char *vec;
	void *map;

	*resident = 0;
	*total = vec_len;
	if (!vec_len)
		return;
	map = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		die(EXIT_LAB_RUNTIME, "cannot map %s: %s", what, strerror(errno));
	vec = malloc(vec_len);
	if (!vec)
		die(EXIT_LAB_RUNTIME, "out of memory");
	if (mincore(map, bytes, vec))
		die(EXIT_LAB_RUNTIME, "mincore on %s failed: %s", what, strerror(errno));
	for (size_t i = 0; i < vec_len; i++)
		*resident += vec[i] & 1;
	free(vec);
	munmap(map, bytes);
}

double resident_fraction(int fd, uint64_t bytes, const char *what)
{
	uint64_t resident, total;

	resident_pages(fd, bytes, what, &resident, &total);
	return total ? (double)resident / (double)total : 0;
}
