/* FIFO: evict the page that entered memory first; hits change nothing.
 * Not a stack algorithm, so it shows Belady's anomaly. */

#include "policy.h"

struct fifo {
	uint32_t *frames; /* ring of resident pages, oldest at head */
	uint8_t *resident;
	size_t capacity;
	size_t used;
	size_t head;
};

static void *fifo_create(const struct sim_trace *trace, const struct sim_params *params,
			 const void *opts)
{
	const struct sim_array arrays[] = {
		SIM_ARRAY(struct fifo, frames, params->cache_pages),
		SIM_ARRAY(struct fifo, resident, trace->distinct),
	};
	struct fifo *f = SIM_STATE_ALLOC(struct fifo, arrays);

	(void)opts; /* no options */
	if (f)
		f->capacity = params->cache_pages;
	return f;
}

static bool fifo_access(void *state, uint32_t page)
{
	struct fifo *f = state;

	if (f->resident[page])
		return true;
	f->resident[page] = 1;
	if (f->used < f->capacity) {
		f->frames[f->used++] = page;
		return false;
	}
	f->resident[f->frames[f->head]] = 0;
	f->frames[f->head] = page;
	if (++f->head == f->capacity)
		f->head = 0;
	return false;
}

const struct sim_policy policy_fifo = {
	.name = "fifo",
	.summary = "first in, first out",
	.create = fifo_create,
	.access = fifo_access,
};
