#include "profile.h"

#include <stdlib.h>
#include <string.h>

/* Counts one distinct stack, seen count times. */
static int add_stack(struct profile *p, const struct stack *st, uint64_t count)
{
	p->samples += count;
	if (stack_idle(st)) {
		p->idle += count;
	} else {
		enum part part = stack_part(st);
		p->part[part] += count;
		if (stack_reclaim(st)) {
			p->reclaim += count;
			p->reclaim_part[part] += count;
			if (stack_kswapd(st))
				p->kswapd += count;
		}
		if (stack_fault(st))
			p->fault += count;
	}
	if (frame_is_symbol(st, st->n - 1) && strmap_add(&p->self, st->frames[st->n - 1], count))
		return -1;
	for (size_t i = 1; i < st->n; i++) {
		if (!frame_is_symbol(st, i))
			continue;
		size_t j = 1;
		while (j < i && strcmp(st->frames[j], st->frames[i]) != 0)
			j++;
		if (j == i && strmap_add(&p->children, st->frames[i], count))
			return -1;	/* counted once per stack, recursion or not */
	}
	return 0;
}

int profile_build(struct profile *p, const struct strmap *stacks)
{
	memset(p, 0, sizeof(*p));
	strmap_init(&p->self);
	strmap_init(&p->children);
	for (size_t i = 0; i < stacks->cap; i++) {
		const struct strmap_entry *e = &stacks->slots[i];
		struct stack st;

		if (e->key == NULL)
			continue;
		if (stack_split(&st, e->key) != 0)
			goto oom;
		int rc = st.n > 0 ? add_stack(p, &st, e->count) : 0;
		stack_free(&st);
		if (rc != 0)
			goto oom;
	}
	return 0;
oom:
	profile_free(p);
	return -1;
}

void profile_free(struct profile *p)
{
	strmap_free(&p->self);
	strmap_free(&p->children);
}

int stacks_with_symbol(struct strmap *out, const struct strmap *in, const char *sym)
{
	for (size_t i = 0; i < in->cap; i++) {
		const struct strmap_entry *e = &in->slots[i];
		struct stack st;
		int hit = 0;

		if (e->key == NULL)
			continue;
		if (stack_split(&st, e->key) != 0)
			return -1;
		for (size_t f = 1; f < st.n && !hit; f++)
			hit = frame_is_symbol(&st, f) && strcmp(st.frames[f], sym) == 0;
		stack_free(&st);
		if (hit && strmap_add(out, e->key, e->count) != 0)
			return -1;
	}
	return 0;
}
