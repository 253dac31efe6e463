/* S3-FIFO (Yang, Zhang, Qiu, Yue & Rashmi, SOSP 2023, Algorithm 1).
 *
 * Three FIFO queues: S, a small queue of new pages (10% of the frames); M,
 * the main queue (the rest); G, a ghost queue of the ids of pages evicted
 * from S, holding as many ids as M holds frames.  Each resident page has a
 * 2-bit access count.
 *  - Hit (x in S or M): count = min(count + 1, 3); nothing moves.
 *  - Miss: while the cache is full, evict; then x enters the head of M if
 *    its id is in G (and leaves G), else the head of S; count = 0.
 *  - evict: from S if |S| >= 10% of the frames, else from M.
 *  - evict from S: take the tail t of S; if t's count > 1, t moves to the
 *    head of M (and M is trimmed by evicting from M if it is now larger
 *    than its share), and the next tail is tried; else t is evicted and its
 *    id enters G (the oldest id leaves G when G is full).
 *  - evict from M: take the tail t of M; if t's count > 0, t goes back to
 *    the head of M with count - 1, and the next tail is tried; else t is
 *    evicted.
 *
 * "count > 1" is Algorithm 1's test (libCacheSim's reference
 * implementation, move_to_main_threshold = 2, agrees); the paper's prose
 * says "accessed at least once".  Option small sets S's share.
 *
 * Deviations: the paper's "if M is full" after a move from S is read as
 * "M holds more than its share" (its share is the frames S does not
 * take).  The small share is rounded down, at least 1 frame; with one frame
 * S takes it and M is empty, so the model holds the last page.
 *
 * Options: small=PERCENT. */

#include "page_lists.h"
#include "policy.h"

enum s3_list { S3_NONE = PAGE_LIST_NONE, S3_SMALL, S3_MAIN, S3_GHOST, S3_NLISTS };

/* A resident page's access count, in its tag's flag bits. */
#define S3_COUNT_SHIFT PAGE_LIST_BITS
#define S3_COUNT_MAX 3

struct s3fifo_opts {
	double small_percent;
};

struct s3fifo {
	struct page_lists lists; /* front = head (newest), back = tail */
	size_t small_size;
	size_t main_size;
};

static const struct s3fifo_opts s3fifo_defaults = { .small_percent = 10.0 };

static const struct sim_option s3fifo_options[] = {
	{ .key = "small", .help = "share of the small FIFO S in percent of the frames (default 10)",
	  .type = SIM_OPT_DOUBLE, .offset = offsetof(struct s3fifo_opts, small_percent), .max = 100.0 },
	{ .key = NULL },
};

static void *s3fifo_create(const struct sim_trace *trace, const struct sim_params *params, const void *opts)
{
	const struct s3fifo_opts *o = opts;
	struct s3fifo *s = PAGE_LISTS_STATE_ALLOC(struct s3fifo, lists, S3_NLISTS, trace, params);

	if (!s)
		return NULL;
	s->small_size = sim_frames_percent(params->cache_pages, o->small_percent);
	if (s->small_size < 1)
		s->small_size = 1;
	if (s->small_size > params->cache_pages)
		s->small_size = params->cache_pages;
	s->main_size = params->cache_pages - s->small_size;
	return s;
}

static enum s3_list s3_where(const struct s3fifo *s, uint32_t page)
{
	return (enum s3_list)page_list_of(&s->lists, page);
}

static unsigned s3_count(const struct s3fifo *s, uint32_t page)
{
	return s->lists.tag[page] >> S3_COUNT_SHIFT;
}

static size_t s3_len(const struct s3fifo *s, enum s3_list l)
{
	return page_list_len(&s->lists, l);
}

/* Move page to the head of list to (or out of every list) with count. */
static void s3_move(struct s3fifo *s, uint32_t page, enum s3_list to, unsigned count)
{
	page_list_move(&s->lists, page, to, 0);
	s->lists.tag[page] |= (uint8_t)(count << S3_COUNT_SHIFT);
}

static void s3_evict_main(struct s3fifo *s)
{
	while (s3_len(s, S3_MAIN)) {
		uint32_t t = page_list_back(&s->lists, S3_MAIN);
		unsigned count = s3_count(s, t);

		if (count == 0) {
			s3_move(s, t, S3_NONE, 0);
			return;
		}
		s3_move(s, t, S3_MAIN, count - 1);
	}
}

static void s3_evict_small(struct s3fifo *s)
{
	while (s3_len(s, S3_SMALL)) {
		uint32_t t = page_list_back(&s->lists, S3_SMALL);

		if (s3_count(s, t) > 1) {
			s3_move(s, t, S3_MAIN, s3_count(s, t));
			if (s3_len(s, S3_MAIN) > s->main_size)
				s3_evict_main(s);
			continue;
		}
		s3_move(s, t, S3_GHOST, 0);
		if (s3_len(s, S3_GHOST) > s->main_size)
			page_list_move_oldest(&s->lists, S3_GHOST, S3_NONE, 0);
		return;
	}
}

static bool s3fifo_access(void *state, uint32_t page)
{
	struct s3fifo *s = state;
	enum s3_list where = s3_where(s, page);

	if (where == S3_SMALL || where == S3_MAIN) {
		unsigned count = s3_count(s, page);

		if (count < S3_COUNT_MAX)
			s->lists.tag[page] = (uint8_t)(where | (count + 1) << S3_COUNT_SHIFT);
		return true;
	}
	while (s3_len(s, S3_SMALL) + s3_len(s, S3_MAIN) >= s->lists.frames) {
		if (s3_len(s, S3_SMALL) >= s->small_size)
			s3_evict_small(s);
		else
			s3_evict_main(s);
	}
	/* The eviction may have pushed page's id out of G. */
	s3_move(s, page, s3_where(s, page) == S3_GHOST ? S3_MAIN : S3_SMALL, 0);
	return false;
}

SIM_POLICY_OPTS(s3fifo, "s3fifo",
		"S3-FIFO (Yang et al. 2023): small, main and ghost FIFO queues",
		s3fifo_create, s3fifo_access, s3fifo_defaults, s3fifo_options);
