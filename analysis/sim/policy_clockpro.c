/* CLOCK-Pro (Jiang, Chen & Zhang, USENIX ATC 2005, section 3), two models:
 * "clockpro", the paper's rules, and "clockpro-2006", the lab's first
 * model, which the kernel port (following the 2006 series) matches and
 * which BENCHMARKS.md measured the port against.
 *
 * One circular list holds resident hot pages, resident cold pages and
 * non-resident cold pages still in their test period.  The list head is
 * the position just behind HAND_hot; pages are inserted there.
 *  - Hit: set the page's reference bit, nothing else.
 *  - Miss: if memory is full, run HAND_cold until one cold page is evicted.
 *    If the page is still in the clock as a non-resident page in its test
 *    period, it is re-accessed within its test period: it becomes hot,
 *    moves to the head, the cold target m_c grows by one and HAND_hot runs
 *    while hot pages exceed m - m_c.  Otherwise it enters at the head as a
 *    cold page in its test period.  HAND_test then runs while there are
 *    more than m non-resident pages (section 3.3: "once the number exceeds
 *    m ... we terminate the test period of the cold page pointed to by
 *    HAND_test").
 *  - HAND_cold, at a resident cold page: referenced and in test -> hot,
 *    m_c + 1, moved to the head, HAND_hot runs; referenced, not in test ->
 *    stays cold, moved to the head, a new test period starts; unreferenced
 *    -> evicted, staying as a non-resident page if in test, else leaving
 *    the clock.  Other pages are passed over.
 *  - HAND_hot, at a hot page: referenced -> bit cleared, stays hot (the
 *    hand passing it leaves it at the head); unreferenced -> cold, not in
 *    test.  At a cold page it ends the test period and removes the page if
 *    non-resident.  It pushes HAND_test ahead of itself.
 *  - HAND_test, at a cold page in test: ends the test period and removes
 *    the page if non-resident.
 *  - m_c (section 3.4): +1 when a cold page, resident or not, is accessed
 *    during its test period, -1 when a test period ends without an access.
 *
 * Where the two models differ (each a departure of clockpro-2006 from the
 * paper, found on LIRS's cs trace, where clockpro-2006 missed exactly as
 * LRU because no page ever became hot):
 *  - Warm-up.  clockpro: while memory is not full, a new page is hot until
 *    the hot pages reach m - m_c, then cold in test.  This is LIRS's rule
 *    (Jiang & Zhang 2002, section 3.3: "when LIR set is not full, all the
 *    referenced blocks are given an LIR status"), the rule CLOCK-Pro
 *    approximates, and the authors' reference simulator does the same (as
 *    Caffeine's port of it records); the CLOCK-Pro paper does not state
 *    the initial state.  clockpro-2006: every page starts cold, so on a
 *    loop longer than about 2m (twice the test period's reach) no page is
 *    ever promoted and the clock misses like LRU.
 *  - An ended test period of a resident cold page whose reference bit is
 *    set (accessed during the test, ended by HAND_hot or HAND_test before
 *    HAND_cold saw the bit).  clockpro: m_c + 1, as section 3.4 counts any
 *    cold page accessed during its test period.  clockpro-2006: m_c - 1.
 *  - Bounds of m_c.  clockpro: [min, m - min], so that some hot pages
 *    remain (the kernel port's bounds).  clockpro-2006: [min, m], so all
 *    pages can turn cold, and m_c starts at min.
 *
 * Choices the paper leaves open, common to both: the lower bound min of
 * m_c is an option (min-cold; default max(1, m/100)); the 2006 Linux port
 * used 2 * pages_high.  A newly loaded page starts with its reference bit
 * clear (the loading reference is not counted twice).  Option insert=port
 * models the kernel ports' insertion instead: a new page starts cold, out
 * of test, with the reference of its load (a young pte in Linux), so
 * HAND_cold's first visit starts its test period and keeps it for a second
 * lap.  Under insert=port the warm-up still makes pages hot.
 *
 * Options: min-cold=PAGES, insert=paper|port. */

#include "policy.h"

#define CP_NONE UINT32_MAX

#define CP_IN_CLOCK 1
#define CP_RESIDENT 2
#define CP_HOT 4
#define CP_TEST 8
#define CP_REF 16

enum cp_insert { CP_INSERT_PAPER, CP_INSERT_PORT };

struct clockpro_opts {
	size_t min_cold; /* 0: max(1, m/100) */
	unsigned insert; /* enum cp_insert */
};

struct clockpro_rules {
	bool warmup_hot;      /* new pages hot until the hot set is full */
	bool ref_end_counts;  /* a referenced test period that ends: m_c + 1 */
	bool keep_min_hot;    /* m_c <= m - min instead of m_c <= m */
};

static const struct clockpro_rules clockpro_paper = { true, true, true };
static const struct clockpro_rules clockpro_2006 = { false, false, false };

struct clockpro {
	uint32_t *next;
	uint32_t *prev;
	uint8_t *flags;
	uint32_t hand_hot;
	uint32_t hand_cold;
	uint32_t hand_test;
	size_t capacity; /* m */
	size_t n_hot;
	size_t n_cold;   /* resident cold pages */
	size_t n_nonres; /* non-resident test pages in the clock */
	size_t cold_target;
	size_t min_cold;
	size_t max_cold;
	bool filled;     /* memory has been full once: warm-up is over */
	bool port_insert;
	struct clockpro_rules rules;
};

static const char *const cp_inserts[] = { "paper", "port", NULL };

static const struct clockpro_opts clockpro_defaults = { .min_cold = 0, .insert = CP_INSERT_PAPER };

static const struct sim_option clockpro_options[] = {
	{ .key = "min-cold", .help = "lower bound of the cold target in pages (default max(1, size/100))",
	  .type = SIM_OPT_SIZE, .offset = offsetof(struct clockpro_opts, min_cold),
	  .min_size = 1, .max_size = SIZE_MAX },
	{ .key = "insert", .help = "paper (new pages cold, in test) or port (cold, out of test, referenced)",
	  .type = SIM_OPT_CHOICE, .offset = offsetof(struct clockpro_opts, insert),
	  .choices = cp_inserts },
	{ .key = NULL },
};

static void *clockpro_create_rules(const struct sim_trace *trace, const struct sim_params *params,
				   const struct clockpro_opts *o, const struct clockpro_rules *rules)
{
	const struct sim_array arrays[] = {
		SIM_ARRAY(struct clockpro, next, trace->distinct),
		SIM_ARRAY(struct clockpro, prev, trace->distinct),
		SIM_ARRAY(struct clockpro, flags, trace->distinct),
	};
	struct clockpro *c = SIM_STATE_ALLOC(struct clockpro, arrays);

	if (!c)
		return NULL;
	c->rules = *rules;
	c->capacity = params->cache_pages;
	c->min_cold = o->min_cold ? o->min_cold : c->capacity / 100;
	c->port_insert = o->insert == CP_INSERT_PORT;
	if (c->min_cold < 1)
		c->min_cold = 1;
	if (c->min_cold > c->capacity)
		c->min_cold = c->capacity;
	c->max_cold = c->capacity;
	if (rules->keep_min_hot)
		c->max_cold = c->capacity > 2 * c->min_cold ? c->capacity - c->min_cold : c->min_cold;
	c->cold_target = c->min_cold;
	c->hand_hot = c->hand_cold = c->hand_test = CP_NONE;
	return c;
}

static void *clockpro_create(const struct sim_trace *trace, const struct sim_params *params,
			     const void *opts)
{
	return clockpro_create_rules(trace, params, opts, &clockpro_paper);
}

static void *clockpro_2006_create(const struct sim_trace *trace, const struct sim_params *params,
				  const void *opts)
{
	return clockpro_create_rules(trace, params, opts, &clockpro_2006);
}

static void cp_insert_head(struct clockpro *c, uint32_t page)
{
	if (c->hand_hot == CP_NONE) {
		c->next[page] = c->prev[page] = page;
		c->hand_hot = c->hand_cold = c->hand_test = page;
		return;
	}
	uint32_t after = c->hand_hot, before = c->prev[after];

	c->prev[page] = before;
	c->next[page] = after;
	c->next[before] = page;
	c->prev[after] = page;
}

static void cp_unlink(struct clockpro *c, uint32_t page)
{
	uint32_t next = c->next[page];

	if (next == page) {
		c->hand_hot = c->hand_cold = c->hand_test = CP_NONE;
		return;
	}
	if (c->hand_hot == page)
		c->hand_hot = next;
	if (c->hand_cold == page)
		c->hand_cold = next;
	if (c->hand_test == page)
		c->hand_test = next;
	c->next[c->prev[page]] = next;
	c->prev[next] = c->prev[page];
}

static void cp_move_to_head(struct clockpro *c, uint32_t page)
{
	cp_unlink(c, page);
	cp_insert_head(c, page);
}

static void cp_cold_target_up(struct clockpro *c)
{
	if (c->cold_target < c->max_cold)
		c->cold_target++;
}

static void cp_cold_target_down(struct clockpro *c)
{
	if (c->cold_target > c->min_cold)
		c->cold_target--;
}

/* End the test period of cold page p; drop it from the clock if it is not
 * resident.  Returns true if it was removed (the hands moved past it). */
static bool cp_end_test(struct clockpro *c, uint32_t page)
{
	c->flags[page] &= (uint8_t)~CP_TEST;
	if (c->rules.ref_end_counts && (c->flags[page] & CP_REF))
		cp_cold_target_up(c);
	else
		cp_cold_target_down(c);
	if (c->flags[page] & CP_RESIDENT)
		return false;
	cp_unlink(c, page);
	c->flags[page] = 0;
	c->n_nonres--;
	return true;
}

static void cp_hand_hot_step(struct clockpro *c)
{
	uint32_t page = c->hand_hot;
	uint8_t f = c->flags[page];

	if (f & CP_HOT) {
		if (f & CP_REF) {
			c->flags[page] = (uint8_t)(f & ~CP_REF);
		} else {
			c->flags[page] = (uint8_t)(f & ~CP_HOT);
			c->n_hot--;
			c->n_cold++;
		}
	} else if ((f & CP_TEST) && cp_end_test(c, page)) {
		return;
	}
	c->hand_hot = c->next[page];
	if (c->hand_test == page)
		c->hand_test = c->hand_hot;
}

static void cp_run_hand_hot(struct clockpro *c)
{
	while (c->n_hot > c->capacity - c->cold_target)
		cp_hand_hot_step(c);
}

static void cp_run_hand_test(struct clockpro *c)
{
	while (c->n_nonres > c->capacity) {
		uint32_t page = c->hand_test;
		uint8_t f = c->flags[page];

		if (!(f & CP_HOT) && (f & CP_TEST) && cp_end_test(c, page))
			continue;
		c->hand_test = c->next[page];
	}
}

static void cp_evict_one(struct clockpro *c)
{
	for (;;) {
		uint32_t page = c->hand_cold;
		uint8_t f = c->flags[page];

		if ((f & (CP_RESIDENT | CP_HOT)) != CP_RESIDENT) {
			c->hand_cold = c->next[page];
			continue;
		}
		if (f & CP_REF) {
			if (f & CP_TEST) {
				c->flags[page] = CP_IN_CLOCK | CP_RESIDENT | CP_HOT;
				c->n_cold--;
				c->n_hot++;
				cp_cold_target_up(c);
				cp_move_to_head(c, page);
				cp_run_hand_hot(c);
			} else {
				c->flags[page] = CP_IN_CLOCK | CP_RESIDENT | CP_TEST;
				cp_move_to_head(c, page);
			}
			continue;
		}
		c->n_cold--;
		if (f & CP_TEST) {
			c->flags[page] = CP_IN_CLOCK | CP_TEST;
			c->n_nonres++;
			c->hand_cold = c->next[page];
		} else {
			cp_unlink(c, page);
			c->flags[page] = 0;
		}
		return;
	}
}

static bool clockpro_access(void *state, uint32_t page)
{
	struct clockpro *c = state;

	if (c->flags[page] & CP_RESIDENT) {
		c->flags[page] |= CP_REF;
		return true;
	}
	if (c->n_hot + c->n_cold == c->capacity) {
		c->filled = true;
		cp_evict_one(c);
	}
	if (c->flags[page] & CP_IN_CLOCK) {
		/* Non-resident and still in its test period. */
		cp_unlink(c, page);
		c->n_nonres--;
		c->flags[page] = CP_IN_CLOCK | CP_RESIDENT | CP_HOT;
		cp_insert_head(c, page);
		c->n_hot++;
		cp_cold_target_up(c);
		cp_run_hand_hot(c);
	} else if (c->rules.warmup_hot && !c->filled && c->n_hot < c->capacity - c->cold_target) {
		/* Memory not full yet: the hot set fills first, as LIRS's LIR set. */
		c->flags[page] = CP_IN_CLOCK | CP_RESIDENT | CP_HOT;
		cp_insert_head(c, page);
		c->n_hot++;
	} else {
		c->flags[page] = CP_IN_CLOCK | CP_RESIDENT |
				 (c->port_insert ? CP_REF : CP_TEST);
		cp_insert_head(c, page);
		c->n_cold++;
	}
	cp_run_hand_test(c);
	return false;
}

SIM_POLICY_OPTS(clockpro, "clockpro",
		"CLOCK-Pro (Jiang, Chen, Zhang 2005): hot set warmed up as LIRS, adaptive cold target",
		clockpro_create, clockpro_access, clockpro_defaults, clockpro_options);

SIM_POLICY_OPTS(clockpro_2006, "clockpro-2006",
		"the lab's first CLOCK-Pro model, as the kernel port: every page starts cold",
		clockpro_2006_create, clockpro_access, clockpro_defaults, clockpro_options);
