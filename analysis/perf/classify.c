#include "classify.h"

#include <string.h>

/* A rule: a name, or a prefix when it ends in '*'. */
static bool match(const char *name, const char *const *rules)
{
	for (; *rules; rules++) {
		size_t len = strlen(*rules);
		if ((*rules)[len - 1] == '*' ? strncmp(name, *rules, len - 1) == 0
					     : strcmp(name, *rules) == 0)
			return true;
	}
	return false;
}

static const char *const idle_task[] = { "swapper", NULL };
static const char *const interrupt[] = {
	"asm_*", "sysvec_*", "__sysvec_*", "common_interrupt", "handle_softirqs", "__do_softirq",
	"do_softirq*", "irq_exit*", "__irq_exit*", NULL,
};
static const char *const reclaim[] = {
	"shrink_node", "kswapd", "balance_pgdat", "try_to_free_pages",
	"try_to_free_mem_cgroup_pages", "__alloc_pages_direct_reclaim", NULL,
};
static const char *const kswapd[] = { "kswapd", NULL };
static const char *const fault[] = { "exc_page_fault", "handle_mm_fault", "do_swap_page", NULL };
static const char *const lock[] = {
	"native_queued_spin_lock_slowpath", "__pv_queued_spin_lock_slowpath",
	"queued_spin_lock_slowpath", "queued_read_lock_slowpath", "queued_write_lock_slowpath",
	"_raw_spin_lock*", "_raw_read_lock*", "_raw_write_lock*", NULL,
};
static const char *const rmap[] = { "folio_referenced*", "rmap_walk*", "try_to_unmap*", NULL };
static const char *const policy[] = {
	"clockpro_*", "cpl_*", "cart_*", "page_replace_cart_*", "cart_r_*", "randpol_*", NULL,
};
static const char *const shadow[] = { "workingset_*", NULL };
static const char *const swapout[] = {
	"add_to_swap*", "pageout", "swap_writepage", "__swap_writepage", NULL,
};

const char *part_name(enum part p)
{
	static const char *const names[NPARTS] = {
		"lock", "rmap", "policy", "shadow", "swapout", "other",
	};
	return p < NPARTS ? names[p] : "?";
}

bool frame_is_symbol(const struct stack *st, size_t i)
{
	return i > 0 && i < st->n && st->frames[i][0] != '[';
}

/* Some frame below the thread's name matches rules. */
static bool any(const struct stack *st, const char *const *rules)
{
	char buf[256];

	for (size_t i = 1; i < st->n; i++)
		if (frame_is_symbol(st, i) && match(frame_base(st->frames[i], buf, sizeof(buf)), rules))
			return true;
	return false;
}

bool stack_idle(const struct stack *st)
{
	return st->n > 0 && match(st->frames[0], idle_task) && !any(st, interrupt);
}

bool stack_reclaim(const struct stack *st)
{
	return any(st, reclaim);
}

bool stack_kswapd(const struct stack *st)
{
	return any(st, kswapd);
}

bool stack_fault(const struct stack *st)
{
	return any(st, fault);
}

enum part stack_part(const struct stack *st)
{
	static const struct { enum part part; const char *const *rules; } parts[] = {
		{ PART_RMAP, rmap }, { PART_POLICY, policy }, { PART_SHADOW, shadow },
		{ PART_SWAPOUT, swapout },
	};
	char buf[256];

	if (frame_is_symbol(st, st->n - 1) &&
	    match(frame_base(st->frames[st->n - 1], buf, sizeof(buf)), lock))
		return PART_LOCK;
	for (size_t i = st->n; i-- > 1;) {
		if (!frame_is_symbol(st, i))
			continue;
		const char *name = frame_base(st->frames[i], buf, sizeof(buf));
		for (size_t k = 0; k < sizeof(parts) / sizeof(*parts); k++)
			if (match(name, parts[k].rules))
				return parts[k].part;
	}
	return PART_OTHER;
}
