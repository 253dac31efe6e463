#define _POSIX_C_SOURCE 200809L
#include "classify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../registry/registry.h"

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
/* Every policy's own symbols: the registry's perf column, classify_load(). */
#define MAX_POLICY_RULES 64
static const char *policy[MAX_POLICY_RULES + 1];
static const char *const shadow[] = { "workingset_*", NULL };
static const char *const swapout[] = {
	"add_to_swap*", "pageout", "swap_writepage", "__swap_writepage", NULL,
};

int classify_load(void)
{
	const struct registry_table *policies = registry_policies();
	size_t n = 0;

	if (policies == NULL)
		return -1;
	for (size_t i = 0; i < policies->nrows; i++) {
		const char *perf = registry_field(policies, i, "perf");
		for (const char *p = perf; p != NULL && *p != '\0';) {
			size_t len = strcspn(p, ",");
			if (len == 0 || n == MAX_POLICY_RULES) {
				fprintf(stderr, "classify: %s/policies.tsv: %s in the perf column of %s\n",
					registry_dir(), len == 0 ? "an empty symbol" : "too many symbols",
					policies->rows[i].fields[0]);
				return -1;
			}
			if ((policy[n++] = strndup(p, len)) == NULL) {
				fprintf(stderr, "classify: out of memory\n");
				return -1;
			}
			p += len + (p[len] == ',');
		}
	}
	policy[n] = NULL;
	return 0;
}

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
