/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Allocation that cannot fail: out of memory, kernel-cost says so in one
 * line and exits 3 (its exit for "cannot read the input").
 */
#ifndef KERNEL_COST_XALLOC_H
#define KERNEL_COST_XALLOC_H

#include <stddef.h>

void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);

#endif
