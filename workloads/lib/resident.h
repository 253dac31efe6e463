/* How much of a file is in the page cache, by mincore(). */
#ifndef LAB_RESIDENT_H
#define LAB_RESIDENT_H

#include <stdint.h>

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

#endif
