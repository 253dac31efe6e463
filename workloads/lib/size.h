/* Size arguments: "4096", "4K", "1.5G", "256MiB", "150%" (of MemTotal). */
#ifndef LAB_SIZE_H
#define LAB_SIZE_H

#include <stdint.h>

/*
 * Accepted: a decimal number (a fraction only with a suffix), then
 * optionally K, M, G or T (powers of 1024, either case, optionally followed
 * by "B" or "iB"), or "%" meaning percent of memtotal. The result must be
 * at least one byte and below 2^62. Returns 0 and sets *out, or -1 and sets
 * *why to a short reason.
 */
int size_parse(const char *s, uint64_t memtotal, uint64_t *out, const char **why);

#endif
