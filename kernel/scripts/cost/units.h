/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which code to compare: a function as the two kernels have it.
 *
 * A request NAME[:CONTAINER...] names a function and, in order, the
 * functions it may be inlined into (sort_folio:scan_folios:isolate_folios:
 * evict_folios).  The first name that both kernels have as a function
 * symbol is compared: exactly NAME, or its only clone (NAME.constprop.N,
 * NAME.isra.N, NAME.part.N), with its NAME.cold part.
 *
 * Discovery adds the functions of chosen source files (symbol files, see
 * elf_image.h) whose size differs between the two kernels: the code the
 * series touched there, inline helpers from headers included; not the
 * boot-time (__init) and exit code.
 */
#ifndef KERNEL_COST_UNITS_H
#define KERNEL_COST_UNITS_H

#include <stddef.h>

#include "elf_image.h"
#include "native_path.h"

struct unit_pair {
	char *label;		/* "sort_folio (in evict_folios)" */
	char *symbol;		/* the function compared */
	int requested;		/* from a request, not from discovery */
	struct function_unit in[2];	/* [0] reference, [1] lab */
};

struct unit_list {
	struct unit_pair *v;
	size_t n;
};

/* Resolve REQUEST in both; 0, or -1 with one line in ERR. */
int units_request(struct unit_list *l, const struct elf_image *ref,
		  const struct elf_image *lab, const char *request, char *err,
		  size_t errlen);

/* Add the functions of FILE (a basename) whose size differs. */
void units_discover(struct unit_list *l, const struct elf_image *ref,
		    const struct elf_image *lab, const char *file);

void units_free(struct unit_list *l);

#endif
