/* Where a sample's CPU went, from its folded stack (folded.h): the rules
 * behind result.json's perf metrics, the report's summary and the plot's
 * bars.  Frames are matched by name without the compiler's suffixes
 * (frame_base).
 *
 * Scopes (a sample may be in several):
 *   idle     the idle task ("swapper") outside any interrupt: the CPU had
 *            nothing to run, e.g. while the workload waited for swap I/O.
 *            Interrupt and softirq work on an idle CPU counts as busy.
 *   reclaim  anything under shrink_node, kswapd, balance_pgdat,
 *            try_to_free_pages, try_to_free_mem_cgroup_pages or
 *            __alloc_pages_direct_reclaim: kswapd's and direct reclaim,
 *            global and memcg, MGLRU's too (its aging and eviction run
 *            under these).
 *   kswapd   reclaim under kswapd; direct: reclaim in any other task.
 *   fault    page-fault handling: the exception (exc_page_fault: its entry
 *            in do_user_addr_fault, where samples taken while it ran with
 *            interrupts off land, is a large share under TCG) and
 *            handle_mm_fault with everything it calls (do_swap_page,
 *            swap-in readahead, direct reclaim when the fault's allocation
 *            had to reclaim), also when get_user_pages faults.
 *
 * Parts (exclusive: a sample counts once, for the frame nearest its leaf
 * that matches; the first rule that matches wins at a frame):
 *   lock     the leaf is a spinlock's slow path or _raw_*_lock* (self
 *            time of lock acquisition; with one CPU, mostly the cost of
 *            taking an uncontended lock);
 *   rmap     folio_referenced*, rmap_walk*, try_to_unmap* (reverse-map
 *            walks: referenced-bit harvesting and unmapping);
 *   policy   the page-replacement policy's own code: the symbols of each
 *            policy's perf column in lab/registry/policies.tsv (functions
 *            of its mm/page_replace_<policy>.c: clockpro_, cpl_ for
 *            clockpro-lirs, cart_, page_replace_cart_, cart_r_, randpol_);
 *            lru's and mglru's code is mm/vmscan.c's, in other;
 *   shadow   workingset_* (shadow entries packed at eviction, looked up at
 *            refault);
 *   swapout  add_to_swap*, pageout, swap_writepage, __swap_writepage
 *            (allocating swap slots and submitting the writes);
 *   other    the rest (e.g. vmscan's list isolation and shrink_folio_list's
 *            own work).
 *
 * cpu-clock samples come from a timer interrupt, so code that runs with
 * interrupts off is sampled where it turns them on again: work done under
 * spin_lock_irq (the LRU lock) shows as _raw_spin_unlock_irq's self time,
 * and the parts give it to the caller that did it. */
#ifndef CLASSIFY_H
#define CLASSIFY_H

#include <stdbool.h>

#include "folded.h"

enum part { PART_LOCK, PART_RMAP, PART_POLICY, PART_SHADOW, PART_SWAPOUT, PART_OTHER, NPARTS };

/* Reads the policies' symbols from the registry (registry.h).  Returns 0,
 * or -1 after one error line; the stack_* functions need it first. */
int classify_load(void);

/* The part's name in result.json and the report ("lock", "rmap", ...). */
const char *part_name(enum part p);

bool stack_idle(const struct stack *st);
bool stack_reclaim(const struct stack *st);
bool stack_kswapd(const struct stack *st);
bool stack_fault(const struct stack *st);
enum part stack_part(const struct stack *st);

/* The frame is a kernel symbol (not the thread, "[user]" or "[dso]"). */
bool frame_is_symbol(const struct stack *st, size_t i);

#endif
