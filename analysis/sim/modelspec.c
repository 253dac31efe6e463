/* Parsing of model specs and of option values; see modelspec.h. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modelspec.h"
#include "sizes.h"

static int parse_size(const char *value, size_t min, size_t max, size_t *out)
{
	unsigned long long v;

	if (parse_u64(value, &v) < 0 || v < min || v > max)
		return -1;
	*out = (size_t)v;
	return 0;
}

int sim_option_set(const struct sim_option *o, void *opts, const char *value)
{
	char *field = (char *)opts + o->offset;

	switch (o->type) {
	case SIM_OPT_SIZE:
		return parse_size(value, o->min_size, o->max_size, (size_t *)(void *)field);
	case SIM_OPT_DOUBLE:
		return parse_double(value, o->min, o->max, (double *)(void *)field);
	case SIM_OPT_CHOICE:
		return parse_choice(value, o->choices, (unsigned *)(void *)field);
	}
	return -1;
}

static const struct sim_option *model_option(const struct sim_policy *policy, const char *key)
{
	for (const struct sim_option *o = policy->options; o && o->key; o++)
		if (strcmp(o->key, key) == 0)
			return o;
	return NULL;
}

int model_set_if_known(struct model *model, const char *key, const char *value, char *err,
		       size_t err_len)
{
	const struct sim_option *o = model_option(model->policy, key);

	if (!o)
		return 0;
	if (sim_option_set(o, model->opts, value) < 0) {
		snprintf(err, err_len, "bad value '%.40s' for %s:%s (%s)", value, model->policy->name, key,
			 o->help);
		return -1;
	}
	return 1;
}

/* Applies "KEY=VALUE" (item is modified).  Returns as model_set_if_known,
 * or -1 when item has no '='. */
static int model_apply(struct model *model, char *item, char *err, size_t err_len)
{
	char *eq = strchr(item, '=');

	if (!eq) {
		snprintf(err, err_len, "option '%.40s' of %s is not KEY=VALUE", item, model->policy->name);
		return -1;
	}
	*eq = '\0';
	return model_set_if_known(model, item, eq + 1, err, err_len);
}

int model_parse(const char *spec, const char *const *defaults, struct model *model, char *err,
		size_t err_len)
{
	char *copy = strdup(spec), *rest, *item;

	memset(model, 0, sizeof(*model));
	if (!copy)
		goto oom;
	rest = strchr(copy, ':');
	if (rest)
		*rest++ = '\0';
	model->policy = sim_policy_find(copy);
	if (!model->policy) {
		snprintf(err, err_len, "unknown policy '%.60s' (see --list-policies)", copy);
		goto fail;
	}
	model->label = strdup(spec);
	if (!model->label)
		goto oom;
	if (model->policy->opts_size) {
		model->opts = malloc(model->policy->opts_size);
		if (!model->opts)
			goto oom;
		memcpy(model->opts, model->policy->opts_defaults, model->policy->opts_size);
	}
	for (size_t i = 0; defaults && defaults[i]; i++) {
		char *def = strdup(defaults[i]);
		int rc;

		if (!def)
			goto oom;
		rc = model_apply(model, def, err, err_len);
		free(def);
		if (rc < 0)
			goto fail;
	}
	while (rest) {
		int rc;

		item = rest;
		rest = strchr(rest, ':');
		if (rest)
			*rest++ = '\0';
		rc = model_apply(model, item, err, err_len);
		if (rc == 0)
			snprintf(err, err_len, "%s has no option '%.40s' (see --list-policies)",
				 model->policy->name, item);
		if (rc <= 0)
			goto fail;
	}
	free(copy);
	return 0;
oom:
	snprintf(err, err_len, "out of memory");
fail:
	free(copy);
	model_free(model);
	return -1;
}

void model_free(struct model *model)
{
	free(model->label);
	free(model->opts);
	memset(model, 0, sizeof(*model));
}

void model_list(FILE *out, bool with_options)
{
	for (size_t i = 0; sim_policies[i]; i++) {
		const struct sim_policy *p = sim_policies[i];

		if (!with_options) {
			fprintf(out, "%-14s %s\n", p->name, p->summary);
			continue;
		}
		for (const struct sim_option *o = p->options; o && o->key; o++)
			fprintf(out, "  %s:%s=V  %s\n", p->name, o->key, o->help);
	}
}
