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

#include "page_lists.h"
#include "policy.h"

enum car_list { CAR_NONE = PAGE_LIST_NONE, CAR_T1, CAR_T2, CAR_B1, CAR_B2, CAR_NLISTS };

#define CAR_REF PAGE_LIST_FLAG(0)

struct car {
	struct page_lists lists;
	double p;
};

static void *car_create(const struct sim_trace *trace, const struct sim_params *params,
			 const void *opts)
{
	(void)opts; /* no options */
	return PAGE_LISTS_STATE_ALLOC(struct car, lists, CAR_NLISTS, trace, params);
}

/* c, the frames (signed: the rules subtract). */
static long car_capacity(const struct car *c)
{
	return (long)c->lists.frames;
}

static long car_len(const struct car *c, enum car_list l)
{
	return (long)page_list_len(&c->lists, l);
}

/* Move page from wherever it is to the front (tail/MRU end) of list to,
 * with the reference bit cleared. */
static void car_move(struct car *c, uint32_t page, enum car_list to)
{
	page_list_move(&c->lists, page, to, 0);
}

static void car_replace(struct car *c)
{
	double min_t1 = c->p > 1.0 ? c->p : 1.0;

	for (;;) {
		if ((double)car_len(c, CAR_T1) >= min_t1) {
			uint32_t head = page_list_back(&c->lists, CAR_T1);

			if (!(c->lists.tag[head] & CAR_REF)) {
				car_move(c, head, CAR_B1);
				return;
			}
			car_move(c, head, CAR_T2);
		} else {
			uint32_t head = page_list_back(&c->lists, CAR_T2);

			if (!(c->lists.tag[head] & CAR_REF)) {
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
	enum car_list where = (enum car_list)page_list_of(&c->lists, page);
	bool in_history = where == CAR_B1 || where == CAR_B2;

	if (where == CAR_T1 || where == CAR_T2) {
		c->lists.tag[page] |= CAR_REF;
		return true;
	}
	if (car_len(c, CAR_T1) + car_len(c, CAR_T2) == car_capacity(c)) {
		car_replace(c);
		if (!in_history) {
			if (car_len(c, CAR_T1) + car_len(c, CAR_B1) == car_capacity(c))
				page_list_move_oldest(&c->lists, CAR_B1, CAR_NONE, 0);
			else if (car_len(c, CAR_T1) + car_len(c, CAR_T2) + car_len(c, CAR_B1) +
				 car_len(c, CAR_B2) == 2 * car_capacity(c))
				page_list_move_oldest(&c->lists, CAR_B2, CAR_NONE, 0);
		}
	}
	if (!in_history) {
		car_move(c, page, CAR_T1);
	} else if (where == CAR_B1) {
		double step = (double)car_len(c, CAR_B2) / (double)car_len(c, CAR_B1);

		c->p += step > 1.0 ? step : 1.0;
		if (c->p > (double)car_capacity(c))
			c->p = (double)car_capacity(c);
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
