/* FIFO: evict the page that entered memory first; hits change nothing.
 * Not a stack algorithm, so it shows Belady's anomaly. */
#include <stdlib.h>

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
	(void)opts; /* no options */
	struct fifo *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->capacity = params->cache_pages;
	f->frames = malloc(f->capacity * sizeof(uint32_t));
	f->resident = calloc(trace->distinct, 1);
	if (!f->frames || !f->resident) {
		free(f->frames);
		free(f->resident);
		free(f);
		return NULL;
	}
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

static void fifo_destroy(void *state)
{
	struct fifo *f = state;

	free(f->frames);
	free(f->resident);
	free(f);
}

const struct sim_policy policy_fifo = {
	.name = "fifo",
	.summary = "first in, first out",
	.create = fifo_create,
	.access = fifo_access,
	.destroy = fifo_destroy,
};
