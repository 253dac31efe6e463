// SPDX-License-Identifier: GPL-2.0
/* Allocation that cannot fail: see xalloc.h. */
#define _DEFAULT_SOURCE
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *checked(void *p)
{
	if (!p) {
		fprintf(stderr, "kernel-cost: out of memory\n");
		exit(3);
	}
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	return checked(calloc(n ? n : 1, size ? size : 1));
}

void *xrealloc(void *p, size_t size)
{
	return checked(realloc(p, size ? size : 1));
}

char *xstrdup(const char *s)
{
	return checked(strdup(s));
}
