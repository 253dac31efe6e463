/* CAR, Clock with Adaptive Replacement (Bansal & Modha, FAST 2004, Fig. 2).
 *
 * T1 (pages seen once recently) and T2 (seen at least twice) are clocks;
 * B1 and B2 remember pages evicted from them.  p is the adaptive target
 * for |T1|.  Each clock is a FIFO whose back is the page under the hand;
 * "move to the tail" pushes to the front.
 *
 * p and its increments are real, as in the paper (|B2|/|B1| and |B1|/|B2|
 * are real quotients; a kernel port would round them down).
 *
 * Deviations: none. */

#include "dlist.h"
#include "policy.h"

enum car_list { CAR_NONE, CAR_T1, CAR_T2, CAR_B1, CAR_B2, CAR_NLISTS };

#define CAR_LIST_MASK 7
#define CAR_REF 8

struct car {
	struct dl_link *nodes;
	struct dl_list lists[CAR_NLISTS];
	uint8_t *state;
	long capacity;
	double p;
};

static void *car_create(const struct sim_trace *trace, const struct sim_params *params,
			 const void *opts)
{
	const struct sim_array arrays[] = {
		SIM_ARRAY(struct car, nodes, trace->distinct + CAR_NLISTS),
		SIM_ARRAY(struct car, state, trace->distinct),
	};
	struct car *c = SIM_STATE_ALLOC(struct car, arrays);

	(void)opts; /* no options */
	if (!c)
		return NULL;
	for (int i = 0; i < CAR_NLISTS; i++)
		dl_list_init(c->nodes, &c->lists[i], (uint32_t)(trace->distinct + (size_t)i));
	c->capacity = (long)params->cache_pages;
	return c;
}

static long car_len(const struct car *c, enum car_list l)
{
	return (long)c->lists[l].len;
}

/* Move page from wherever it is to the front (tail/MRU end) of list to,
 * with the reference bit cleared. */
static void car_move(struct car *c, uint32_t page, enum car_list to)
{
	enum car_list from = (enum car_list)(c->state[page] & CAR_LIST_MASK);

	if (from != CAR_NONE)
		dl_remove(c->nodes, &c->lists[from], page);
	if (to == CAR_NONE) {
		c->state[page] = 0;
		return;
	}
	dl_push_front(c->nodes, &c->lists[to], page);
	c->state[page] = (uint8_t)to;
}

static void car_replace(struct car *c)
{
	double min_t1 = c->p > 1.0 ? c->p : 1.0;

	for (;;) {
		if ((double)car_len(c, CAR_T1) >= min_t1) {
			uint32_t head = dl_back(c->nodes, &c->lists[CAR_T1]);

			if (!(c->state[head] & CAR_REF)) {
				car_move(c, head, CAR_B1);
				return;
			}
			car_move(c, head, CAR_T2);
		} else {
			uint32_t head = dl_back(c->nodes, &c->lists[CAR_T2]);

			if (!(c->state[head] & CAR_REF)) {
				car_move(c, head, CAR_B2);
				return;
			}
			car_move(c, head, CAR_T2);
		}
	}
}

static bool car_access(void *state, uint32_t page)
{
	struct car *c = state;
	enum car_list where = (enum car_list)(c->state[page] & CAR_LIST_MASK);
	bool in_history = where == CAR_B1 || where == CAR_B2;

	if (where == CAR_T1 || where == CAR_T2) {
		c->state[page] |= CAR_REF;
		return true;
	}
	if (car_len(c, CAR_T1) + car_len(c, CAR_T2) == c->capacity) {
		car_replace(c);
		if (!in_history) {
			if (car_len(c, CAR_T1) + car_len(c, CAR_B1) == c->capacity)
				car_move(c, dl_back(c->nodes, &c->lists[CAR_B1]), CAR_NONE);
			else if (car_len(c, CAR_T1) + car_len(c, CAR_T2) + car_len(c, CAR_B1) +
				 car_len(c, CAR_B2) == 2 * c->capacity)
				car_move(c, dl_back(c->nodes, &c->lists[CAR_B2]), CAR_NONE);
		}
	}
	if (!in_history) {
		car_move(c, page, CAR_T1);
	} else if (where == CAR_B1) {
		double step = (double)car_len(c, CAR_B2) / (double)car_len(c, CAR_B1);

		c->p += step > 1.0 ? step : 1.0;
		if (c->p > (double)c->capacity)
			c->p = (double)c->capacity;
		car_move(c, page, CAR_T2);
	} else {
		double step = (double)car_len(c, CAR_B1) / (double)car_len(c, CAR_B2);

		c->p -= step > 1.0 ? step : 1.0;
		if (c->p < 0.0)
			c->p = 0.0;
		car_move(c, page, CAR_T2);
	}
	return false;
}

SIM_POLICY(car, "car",
	   "CAR (Bansal & Modha 2004): T1/T2 clocks, B1/B2 history, adaptive p",
	   car_create, car_access);
