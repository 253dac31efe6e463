/* Registry of the replacement models, in default output order. */
#include <string.h>

#include "policy.h"

const struct sim_policy *const sim_policies[] = {
	&policy_opt,
	&policy_lru,
	&policy_fifo,
	&policy_clock,
	&policy_lru2q,
	&policy_clockpro,
	&policy_clockpro_2006,
	&policy_clockpro_lirs,
	&policy_lirs,
	&policy_car,
	&policy_cart,
	&policy_cart_r,
	&policy_arc,
	&policy_2q,
	&policy_s3fifo,
	&policy_sieve,
	&policy_random,
	NULL,
};

const struct sim_policy *sim_policy_find(const char *name)
{
	for (size_t i = 0; sim_policies[i]; i++)
		if (strcmp(sim_policies[i]->name, name) == 0)
			return sim_policies[i];
	return NULL;
}
