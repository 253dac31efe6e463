/* CART, Clock with Adaptive Replacement and Temporal filtering (Bansal &
 * Modha, FAST 2004, Fig. 3), and CART-r, the 2006 Linux series' CART with
 * a cyclic-access detector (original-series.md section 3.4, patch 33).
 * Both share this file because CART-r is CART plus a few hooks.
 *
 * CART: T1/T2 clocks, B1/B2 history, p the target for |T1|, q the target
 * for |B1|, and a filter bit per resident page: S (short-term) or L
 * (long-term).  New pages enter T1 as S; history hits enter T1 as L.  A
 * referenced S page in T1 becomes L only when |T1| >= min(p + 1, |B1|), so
 * correlated references in a burst do not make a page long-term.  An
 * unreferenced L page at the T1 hand moves to T2; a referenced T2 page
 * moves back to T1.  Clocks are FIFOs whose back is under the hand.
 *
 * CART-r adds r: each history miss raises it by max(1, nL / (nS + 1))
 * (capped at c), each history hit lowers it by max(1, nS / (nL + 1))
 * (floored at 0).  When r < nL at a replacement the string is taken to be
 * cyclic: the victim comes from T1 (if T1 is not empty) and, while that
 * holds, a page still "new" (inserted and not yet passed by the T1 hand) is
 * evicted at the hand even if referenced, so a loop's new pages leave
 * before they displace the working set.
 *
 * Deviations: integer arithmetic for p, q and r as in the kernel; r starts
 * at 0; the July-2006 v2 extra condition (|T1| > batch or |T1| > |T2|) is
 * not modelled because the simulator has no reclaim batches.  In the
 * kernel PG_new also absorbs the fault-time reference; here the loading
 * reference is never counted as a reference, which has the same effect. */

#include "page_lists.h"
#include "policy.h"

enum cart_list { CART_NONE = PAGE_LIST_NONE, CART_T1, CART_T2, CART_B1, CART_B2, CART_NLISTS };

#define CART_REF PAGE_LIST_FLAG(0)
#define CART_LONG PAGE_LIST_FLAG(1) /* filter bit L; clear means S */
#define CART_NEW PAGE_LIST_FLAG(2)  /* CART-r: not yet passed by the T1 hand */

struct cart {
	struct page_lists lists;
	long p;
	long q;
	long n_short;
	long n_long;
	bool detect_cycles;
	long r;
};

/* What tells CART and CART-r apart (their settings, SIM_POLICY_VARIANT). */
struct cart_variant {
	bool detect_cycles;
};

static const struct cart_variant cart_settings = { .detect_cycles = false };
static const struct cart_variant cart_r_settings = { .detect_cycles = true };

static void *cart_create(const struct sim_trace *trace, const struct sim_params *params,
			 const void *opts)
{
	const struct cart_variant *variant = opts;
	struct cart *c = PAGE_LISTS_STATE_ALLOC(struct cart, lists, CART_NLISTS, trace, params);

	if (c)
		c->detect_cycles = variant->detect_cycles;
	return c;
}

/* c, the frames (signed: the rules subtract). */
static long cart_capacity(const struct cart *c)
{
	return (long)c->lists.frames;
}

static long cart_len(const struct cart *c, enum cart_list l)
{
	return (long)page_list_len(&c->lists, l);
}

static long cart_max(long a, long b)
{
	return a > b ? a : b;
}

static long cart_min(long a, long b)
{
	return a < b ? a : b;
}

/* Move page to the front (tail/MRU end) of list to; keeps only the flag
 * bits in keep. */
static void cart_move(struct cart *c, uint32_t page, enum cart_list to, uint8_t keep)
{
	page_list_move(&c->lists, page, to, keep);
}

static void cart_q_up(struct cart *c)
{
	if (cart_len(c, CART_T2) + cart_len(c, CART_B2) + cart_len(c, CART_T1) - c->n_short >=
	    cart_capacity(c))
		c->q = cart_min(c->q + 1, 2 * cart_capacity(c) - cart_len(c, CART_T1));
}

static void cart_replace(struct cart *c)
{
	bool cyclic = c->detect_cycles && c->r < c->n_long && cart_len(c, CART_T1) > 0;

	while (cart_len(c, CART_T2) > 0) {
		uint32_t head = page_list_back(&c->lists, CART_T2);

		if (!(c->lists.tag[head] & CART_REF))
			break;
		cart_move(c, head, CART_T1, CART_LONG);
		cart_q_up(c);
	}
	while (cart_len(c, CART_T1) > 0) {
		uint32_t head = page_list_back(&c->lists, CART_T1);
		uint8_t s = c->lists.tag[head];

		if (cyclic && (s & CART_NEW))
			break;
		if (!(s & (CART_LONG | CART_REF)))
			break;
		if (s & CART_REF) {
			cart_move(c, head, CART_T1, CART_LONG);
			if (!(s & CART_LONG) &&
			    cart_len(c, CART_T1) >= cart_min(c->p + 1, cart_len(c, CART_B1))) {
				c->lists.tag[head] |= CART_LONG;
				c->n_short--;
				c->n_long++;
			}
		} else {
			cart_move(c, head, CART_T2, CART_LONG);
			c->q = cart_max(c->q - 1, cart_capacity(c) - cart_len(c, CART_T1));
		}
	}
	if (cart_len(c, CART_T1) > 0 && (cyclic || cart_len(c, CART_T1) >= cart_max(1, c->p))) {
		uint32_t head = page_list_back(&c->lists, CART_T1);

		if (c->lists.tag[head] & CART_LONG)
			c->n_long--;
		else
			c->n_short--;
		cart_move(c, head, CART_B1, 0);
	} else {
		cart_move(c, page_list_back(&c->lists, CART_T2), CART_B2, 0);
		c->n_long--;
	}
}

static bool cart_access(void *state, uint32_t page)
{
	struct cart *c = state;
	enum cart_list where = (enum cart_list)page_list_of(&c->lists, page);
	bool in_history = where == CART_B1 || where == CART_B2;

	if (where == CART_T1 || where == CART_T2) {
		c->lists.tag[page] |= CART_REF;
		return true;
	}
	if (cart_len(c, CART_T1) + cart_len(c, CART_T2) == cart_capacity(c)) {
		cart_replace(c);
		if (!in_history && cart_len(c, CART_B1) + cart_len(c, CART_B2) == cart_capacity(c) + 1) {
			enum cart_list victim_list =
				cart_len(c, CART_B1) > cart_max(0, c->q) || cart_len(c, CART_B2) == 0
					? CART_B1 : CART_B2;

			page_list_move_oldest(&c->lists, victim_list, CART_NONE, 0);
		}
	}
	if (!in_history) {
		if (c->detect_cycles)
			c->r = cart_min(c->r + cart_max(1, c->n_long / (c->n_short + 1)), cart_capacity(c));
		cart_move(c, page, CART_T1, 0);
		c->lists.tag[page] |= CART_NEW;
		c->n_short++;
		return false;
	}
	if (c->detect_cycles)
		c->r = cart_max(c->r - cart_max(1, c->n_short / (c->n_long + 1)), 0);
	if (where == CART_B1) {
		c->p = cart_min(c->p + cart_max(1, c->n_short / cart_len(c, CART_B1)), cart_capacity(c));
	} else {
		c->p = cart_max(c->p - cart_max(1, c->n_long / cart_len(c, CART_B2)), 0);
	}
	cart_move(c, page, CART_T1, 0);
	c->lists.tag[page] |= CART_LONG | CART_NEW;
	c->n_long++;
	if (where == CART_B2)
		cart_q_up(c);
	return false;
}

SIM_POLICY_VARIANT(cart, "cart",
		   "CART (Bansal & Modha 2004): CAR with the S/L temporal filter and q",
		   cart_create, cart_access, cart_settings);

SIM_POLICY_VARIANT(cart_r, "cart-r",
		   "CART plus the 2006 series' cyclic-access detector (patch 33)",
		   cart_create, cart_access, cart_r_settings);
