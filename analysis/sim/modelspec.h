/* A model as the user names it: "NAME" or "NAME:KEY=VALUE[:KEY=VALUE...]",
 * turned into the policy and its filled-in option block. */
#ifndef SIM_MODELSPEC_H
#define SIM_MODELSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "policy.h"

struct model {
	const struct sim_policy *policy;
	char *label; /* the spec as given: printed in the policy column */
	void *opts;  /* policy->opts_size bytes, or NULL */
};

/* Parses one spec.  defaults: NULL-terminated "KEY=VALUE" strings applied
 * first to a model that has the key (others ignore them); the spec's own
 * options then override them.  Returns 0, or -1 with a message in err (an
 * unknown name or key, a bad value, or "out of memory"). */
int model_parse(const char *spec, const char *const *defaults, struct model *model, char *err,
		size_t err_len);

/* Applies KEY=VALUE to a model that has the key; returns 1 if applied, 0 if
 * the model has no such key, -1 (message in err) if the value is bad. */
int model_set_if_known(struct model *model, const char *key, const char *value, char *err,
		       size_t err_len);

void model_free(struct model *model);

/* Prints one line per model, name first then its summary
 * (--list-policies; scripts read the first word), or with_options one line
 * per model option (--help). */
void model_list(FILE *out, bool with_options);

#endif
