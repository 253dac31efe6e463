/* Reading /proc/meminfo. */
#ifndef LAB_MEMINFO_H
#define LAB_MEMINFO_H

#include <stdint.h>

/* Look up key (e.g. "MemTotal") in a meminfo-format file and return its
 * value in bytes. Returns 0 on success, -1 if unreadable or missing. */
int meminfo_read(const char *path, const char *key, uint64_t *bytes);

/* MemTotal of this machine in bytes, or 0 if /proc/meminfo is unreadable. */
uint64_t meminfo_total(void);

#endif
