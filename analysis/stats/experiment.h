/* "The same experiment": the one definition every table uses (labstat's
 * comparison, lab.sh compare, plot, bound and report through labstat).
 *
 * Two runs are reps of one experiment when every parameter that can
 * change a count is equal: the kernel (kernel_flavour, kernel.series_sha,
 * kernel.config_sha), the policy, the workload and its options
 * (params.args without --seed: reps may vary the seed on purpose), the
 * guest (mem_mib, vcpus, accel), the tracing (trace, trace_buffer_kb,
 * trace_profile, perf_freq_hz), the guest's settings (params.sysctl,
 * params.boot_args, params.cgroup, params.switch_at), the machine's shape
 * (params.numa, params.swap, params.thp, params.fs) and the companion
 * workloads that ran beside it
 * (params.also: each one's workload, options without --seed, and
 * cgroup).  A field a result.json lacks takes
 * its default, so results written before the field existed still group
 * with new ones made without it.
 *
 * The host a run ran on (host.name) is a parameter too, but tables leave
 * it out unless asked (labstat --by host): reps made on several machines
 * of one kind are one experiment.
 *
 * A run's parameters become tokens ("mem=256M", "size=48M"), each owned
 * by one parameter.  Tables put policy and kernel in their columns and
 * everything else in their rows; --ignore PARAM drops a parameter's
 * tokens to merge on purpose. */
#ifndef EXPERIMENT_H
#define EXPERIMENT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

enum experiment_param {
	PARAM_KERNEL_FLAVOUR,
	PARAM_SERIES_SHA,
	PARAM_CONFIG_SHA,
	PARAM_POLICY,
	PARAM_WORKLOAD,
	PARAM_ARGS,
	PARAM_MEM,
	PARAM_VCPUS,
	PARAM_ACCEL,
	PARAM_TRACE,
	PARAM_TRACE_BUFFER,
	PARAM_TRACE_PROFILE,
	PARAM_PERF_FREQ,
	PARAM_SYSCTL,
	PARAM_BOOT_ARGS,
	PARAM_CGROUP,
	PARAM_SWITCH_AT,
	PARAM_ALSO,
	PARAM_NUMA,
	PARAM_SWAP,
	PARAM_THP,
	PARAM_FS,
	PARAM_HOST,
	EXPERIMENT_PARAMS
};

struct experiment_token {
	enum experiment_param param;
	char *text;		/* "key=value" as tables print it */
};

struct experiment {
	struct experiment_token *tokens;	/* in parameter order */
	size_t count;
};

/* Reads a run's parameters from its result.json.  Returns 0, or -1 when
 * out of memory. */
int experiment_read(struct experiment *e, json_t *root);
void experiment_free(struct experiment *e);

/* The parameter's name as result.json spells it ("kernel.series_sha"). */
const char *experiment_param_name(enum experiment_param p);

/* The parameter named name, or -1 (also accepts "size" and "passes"
 * for params.args, "mem" for mem_mib). */
int experiment_param_lookup(const char *name);

/* Parameters that make a table's columns (policy and kernel); the rest
 * make its rows. */
bool experiment_param_in_column(enum experiment_param p);

#endif
