/* The interface every replacement model implements.
 *
 * A model sees pages as dense ids in [0, trace->distinct) and is driven one
 * reference at a time; access() returns true on a hit.  Models that need the
 * future (OPT) read trace->next_use, which the caller fills in when
 * needs_future is set.  create() returns NULL only when out of memory;
 * its state is one block from sim_state_alloc(), which the caller frees.
 *
 * A model's own options live in its file: a struct with its defaults
 * (opts_defaults, opts_size bytes) and in options[] the keys that may
 * change a member of it; the caller parses "NAME:KEY=VALUE:..." into a
 * copy of the defaults and passes it to create(). */
#ifndef SIM_POLICY_H
#define SIM_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace.h"

struct sim_params {
	size_t cache_pages;
	uint64_t seed;
};

enum sim_option_type {
	SIM_OPT_SIZE,	/* size_t in [min_size, max_size] */
	SIM_OPT_DOUBLE,	/* double in [min, max] */
	SIM_OPT_CHOICE,	/* unsigned: the index of the value in choices[] */
};

/* One KEY of a model's options: where its value lives in the option block
 * and what values it takes. */
struct sim_option {
	const char *key;
	const char *help;
	enum sim_option_type type;
	size_t offset;
	size_t min_size, max_size;
	double min, max;
	const char *const *choices; /* NULL-terminated */
};

struct sim_policy {
	const char *name;
	const char *summary;
	bool needs_future;
	const struct sim_option *options; /* terminated by a NULL key; may be NULL */
	size_t opts_size;                 /* 0 when the model has no options */
	const void *opts_defaults;        /* opts_size bytes */
	void *(*create)(const struct sim_trace *trace, const struct sim_params *params, const void *opts);
	bool (*access)(void *state, uint32_t page);
};

extern const struct sim_policy policy_opt;
extern const struct sim_policy policy_lru;
extern const struct sim_policy policy_fifo;
extern const struct sim_policy policy_clock;
extern const struct sim_policy policy_random;
extern const struct sim_policy policy_lru2q;
extern const struct sim_policy policy_clockpro;
extern const struct sim_policy policy_car;
extern const struct sim_policy policy_cart;
extern const struct sim_policy policy_cart_r;
extern const struct sim_policy policy_lirs;
extern const struct sim_policy policy_arc;
extern const struct sim_policy policy_2q;
extern const struct sim_policy policy_s3fifo;
extern const struct sim_policy policy_sieve;
extern const struct sim_policy policy_clockpro_2006;
extern const struct sim_policy policy_clockpro_lirs;

/* The descriptor of a model without options: policy_ID. */
#define SIM_POLICY(id, model_name, text, create_fn, access_fn) \
	const struct sim_policy policy_##id = { \
		.name = (model_name), \
		.summary = (text), \
		.create = (create_fn), \
		.access = (access_fn), \
	}

/* The same for a model with options: the option block is a copy of
 * DEFAULTS (a const struct), changed by the keys in OPTIONS. */
#define SIM_POLICY_OPTS(id, model_name, text, create_fn, access_fn, defaults, opts_keys) \
	const struct sim_policy policy_##id = { \
		.name = (model_name), \
		.summary = (text), \
		.options = (opts_keys), \
		.opts_size = sizeof(defaults), \
		.opts_defaults = &(defaults), \
		.create = (create_fn), \
		.access = (access_fn), \
	}

/* One of the variants of a model that share its create and access: what
 * tells them apart is SETTINGS, a const struct passed to create() as its
 * option block, which no key changes. */
#define SIM_POLICY_VARIANT(id, model_name, text, create_fn, access_fn, settings) \
	SIM_POLICY_OPTS(id, model_name, text, create_fn, access_fn, settings, NULL)

/* NULL-terminated, in the default output order. */
extern const struct sim_policy *const sim_policies[];

const struct sim_policy *sim_policy_find(const char *name);

/* An array of a model's state: the pointer member at offset gets count
 * zeroed elements of size bytes. */
struct sim_array {
	size_t offset;
	size_t count;
	size_t size;
};

#define SIM_ARRAY(type, member, n) \
	{ offsetof(type, member), (n), sizeof(*((type *)0)->member) }

/* A zeroed state of state_size bytes with its arrays in the same block,
 * freed with free(); NULL when out of memory or the sizes overflow. */
void *sim_state_alloc(size_t state_size, const struct sim_array *arrays, size_t n_arrays);

#define SIM_STATE_ALLOC(type, arrays) \
	((type *)sim_state_alloc(sizeof(type), (arrays), sizeof(arrays) / sizeof((arrays)[0])))

/* Store VALUE into opts as option o says; -1 (nothing stored) unless the
 * whole string is a number in range or one of the choices. */
int sim_option_set(const struct sim_option *o, void *opts, const char *value);

/* percent of frames, rounded down: the part of the cache a model's share
 * option (kin, small, hir, ...) gives a queue. */
static inline size_t sim_frames_percent(size_t frames, double percent)
{
	return (size_t)((double)frames * percent / 100.0);
}

#endif
