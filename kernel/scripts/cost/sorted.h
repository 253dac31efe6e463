/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Binary search in the arrays kernel-cost keeps sorted by an address:
 * the instructions, the jump-label sites, the symbols, the address
 * ranges of the units.
 */
#ifndef KERNEL_COST_SORTED_H
#define KERNEL_COST_SORTED_H

#include <stddef.h>
#include <stdint.h>

/*
 * BASE holds N items of SIZE bytes, sorted by the uint64_t at KEY_OFFSET
 * in each.  The index of the first item whose key is KEY or above
 * (sorted_first_from), or above KEY (sorted_first_after); N when there is
 * none.
 */
size_t sorted_first_from(const void *base, size_t n, size_t size,
			 size_t key_offset, uint64_t key);
size_t sorted_first_after(const void *base, size_t n, size_t size,
			  size_t key_offset, uint64_t key);

#endif
