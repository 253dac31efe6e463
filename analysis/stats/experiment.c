#define _POSIX_C_SOURCE 200809L
#include "experiment.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Names as in result.json (CONTRACTS.md), in enum order. */
static const char *const param_names[EXPERIMENT_PARAMS] = {
	"kernel_flavour", "kernel.series_sha", "kernel.config_sha", "policy", "workload",
	"params.args", "mem_mib", "vcpus", "accel", "trace", "trace_buffer_kb", "trace_profile", "perf_freq_hz",
	"params.sysctl", "params.boot_args", "params.cgroup", "params.switch_at", "params.also",
	"params.numa", "params.swap", "params.thp", "params.fs", "host.name",
};

/* What a field a result.json lacks stands for: what lab.sh run does
 * without the option (trace_buffer_kb: the profile's size before it was
 * recorded; trace_profile: the one profile there was). */
#define DEFAULT_MEM_MIB 256
#define DEFAULT_VCPUS 2
#define DEFAULT_ACCEL "tcg"
#define DEFAULT_TRACE "none"
#define DEFAULT_TRACE_BUFFER_KB 2048
#define DEFAULT_TRACE_PROFILE "default"
#define SHA_SHOWN 12

const char *experiment_param_name(enum experiment_param p)
{
	return p < EXPERIMENT_PARAMS ? param_names[p] : "?";
}

int experiment_param_lookup(const char *name)
{
	static const struct { const char *alias; enum experiment_param p; } aliases[] = {
		{ "series_sha", PARAM_SERIES_SHA }, { "config_sha", PARAM_CONFIG_SHA },
		{ "flavour", PARAM_KERNEL_FLAVOUR }, { "args", PARAM_ARGS },
		{ "params.size", PARAM_ARGS }, { "size", PARAM_ARGS }, { "passes", PARAM_ARGS },
		{ "mem", PARAM_MEM }, { "sysctl", PARAM_SYSCTL }, { "boot_args", PARAM_BOOT_ARGS },
		{ "cgroup", PARAM_CGROUP }, { "switch_at", PARAM_SWITCH_AT }, { "also", PARAM_ALSO },
		{ "host", PARAM_HOST }, { "profile", PARAM_TRACE_PROFILE },
		{ "numa", PARAM_NUMA }, { "swap", PARAM_SWAP }, { "thp", PARAM_THP },
		{ "fs", PARAM_FS },
	};
	for (int p = 0; p < EXPERIMENT_PARAMS; p++)
		if (strcmp(name, param_names[p]) == 0)
			return p;
	for (size_t i = 0; i < sizeof(aliases) / sizeof(*aliases); i++)
		if (strcmp(name, aliases[i].alias) == 0)
			return (int)aliases[i].p;
	return -1;
}

bool experiment_param_in_column(enum experiment_param p)
{
	return p == PARAM_POLICY || p == PARAM_KERNEL_FLAVOUR || p == PARAM_SERIES_SHA ||
	       p == PARAM_CONFIG_SHA;
}

static int add(struct experiment *e, enum experiment_param p, const char *key, const char *value)
{
	size_t len = strlen(key) + strlen(value) + 2;
	char *text = malloc(len);
	struct experiment_token *grown = realloc(e->tokens, (e->count + 1) * sizeof(*grown));

	if (grown != NULL)
		e->tokens = grown;
	if (text == NULL || grown == NULL) {
		free(text);
		return -1;
	}
	snprintf(text, len, value[0] ? "%s=%s" : "%s", key, value);
	/* Labels go into CSV cells too. */
	for (char *c = text; (c = strchr(c, ',')) != NULL;)
		*c = ';';
	e->tokens[e->count++] = (struct experiment_token){ p, text };
	return 0;
}

/* A JSON scalar as text: strings as they are, numbers as printed; NULL
 * for null, arrays and objects. */
static const char *scalar(json_t *v, char *buf, size_t len)
{
	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v)) {
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
		return buf;
	}
	if (json_is_real(v)) {
		snprintf(buf, len, "%g", json_real_value(v));
		return buf;
	}
	if (json_is_true(v) || json_is_false(v))
		return json_is_true(v) ? "true" : "false";
	return NULL;
}

static const char *string_or(json_t *obj, const char *key, const char *fallback)
{
	json_t *v = json_object_get(obj, key);

	return json_is_string(v) ? json_string_value(v) : fallback;
}

static long long integer_or(json_t *obj, const char *key, long long fallback)
{
	json_t *v = json_object_get(obj, key);

	return json_is_integer(v) ? json_integer_value(v) : fallback;
}

/*
 * The series a run's kernel was built from, shortened; an own image
 * (lab.sh run --kernel-image) has none, and is named by its checksum,
 * "image-" and its first hex digits, or, in runs from before the checksum
 * was recorded, by its file name: two images are two kernels.
 */
static void kernel_series(json_t *kernel, char *series, size_t size)
{
	const char *sha = string_or(kernel, "series_sha", "unknown");
	const char *image = string_or(kernel, "image", NULL);
	const char *image_sha = string_or(kernel, "image_sha", NULL);

	if (strcmp(sha, "unknown") != 0 || (image == NULL && image_sha == NULL))
		snprintf(series, size, "%s", sha);
	else if (image_sha != NULL)
		snprintf(series, size, "image-%s", image_sha);
	else
		snprintf(series, size, "%s", strrchr(image, '/') ? strrchr(image, '/') + 1 : image);
}

static int add_kernel(struct experiment *e, json_t *root)
{
	const char *policy = string_or(root, "policy", "");
	const char *flavour = string_or(root, "kernel_flavour",
					strncmp(policy, "vanilla", 7) == 0 ? "vanilla" : "lab");
	json_t *kernel = json_object_get(root, "kernel");
	char series[SHA_SHOWN + 1], config[SHA_SHOWN + 1];

	kernel_series(kernel, series, sizeof(series));
	snprintf(config, sizeof(config), "%s", string_or(kernel, "config_sha", "unknown"));
	return add(e, PARAM_KERNEL_FLAVOUR, "kernel", flavour) ||
	       add(e, PARAM_SERIES_SHA, "series", series) ||
	       add(e, PARAM_CONFIG_SHA, "config", config);
}

/* Each option of a workload's args array as (key, value): "--size 48M"
 * -> ("size", "48M"), "--readahead" alone -> ("readahead", ""),
 * "--emit-refs FILE" -> ("refs", ""); --seed is left out (reps differ in
 * seed on purpose).  Returns 0, or fn's first non-zero. */
static int each_arg(json_t *args, int (*fn)(void *ctx, const char *key, const char *value),
		    void *ctx)
{
	size_t n = json_array_size(args);

	for (size_t i = 0; i < n; i++) {
		const char *a = json_string_value(json_array_get(args, i));
		const char *next = i + 1 < n ? json_string_value(json_array_get(args, i + 1)) : NULL;
		int pair = next != NULL && strncmp(next, "--", 2) != 0, rc = 0;

		if (a == NULL)
			continue;
		if (strncmp(a, "--", 2) == 0)
			a += 2;
		if (strcmp(a, "emit-refs") == 0)
			rc = fn(ctx, "refs", "");
		else if (strcmp(a, "seed") != 0)
			rc = fn(ctx, a, pair ? next : "");
		if (rc)
			return rc;
		if (pair)
			i++;
	}
	return 0;
}

static int add_arg(void *e, const char *key, const char *value)
{
	return add(e, PARAM_ARGS, key, value);
}

/* Workload options from params.args, one token each, or params.size and
 * passes when there is no args array. */
static int add_args(struct experiment *e, json_t *params)
{
	json_t *args = json_object_get(params, "args");
	char buf[64];

	if (!json_is_array(args)) {
		const char *size = scalar(json_object_get(params, "size"), buf, sizeof(buf));
		if (size != NULL && size[0] && add(e, PARAM_ARGS, "size", size))
			return -1;
		const char *passes = scalar(json_object_get(params, "passes"), buf, sizeof(buf));
		return passes != NULL && add(e, PARAM_ARGS, "passes", passes) ? -1 : 0;
	}
	return each_arg(args, add_arg, e);
}

/* An array of "K=V" strings, one token each. */
static int add_list(struct experiment *e, enum experiment_param p, const char *key, json_t *list)
{
	size_t i;
	json_t *v;

	json_array_foreach(list, i, v) {
		if (json_is_string(v) && add(e, p, key, json_string_value(v)))
			return -1;
	}
	return 0;
}

/* A cgroup object as "NAME:LIMIT" (LIMIT in MiB when whole, else in
 * bytes, or as given for a share of MemTotal, or "unlimited"), or NULL
 * for null or missing: no cgroup, the default. */
static const char *cgroup_text(json_t *cgroup, char *buf, size_t len)
{
	json_t *limit = json_object_get(cgroup, "limit_bytes");
	const char *name = string_or(cgroup, "name", "?");

	if (!json_is_object(cgroup))
		return NULL;
	if (json_is_integer(limit) && json_integer_value(limit) % (1 << 20) == 0)
		snprintf(buf, len, "%s:%lldM", name, (long long)json_integer_value(limit) >> 20);
	else if (json_is_integer(limit))
		snprintf(buf, len, "%s:%lld", name, (long long)json_integer_value(limit));
	else
		snprintf(buf, len, "%s:%s", name, string_or(cgroup, "limit", "unlimited"));
	return buf;
}

static int add_cgroup(struct experiment *e, json_t *cgroup)
{
	char buf[160];
	const char *text = cgroup_text(cgroup, buf, sizeof(buf));

	return text == NULL ? 0 : add(e, PARAM_CGROUP, "cgroup", text);
}

static int put_arg(void *f, const char *key, const char *value)
{
	return fprintf(f, ";%s%s%s", key, value[0] ? "=" : "", value) < 0;
}

/* A companion (one object of params.also) as "WORKLOAD(OPTION;...)": its
 * options as in params.args (without --seed), then "cgroup=NAME:LIMIT";
 * malloc'd, NULL when out of memory. */
static char *also_text(json_t *c)
{
	char *body = NULL, buf[160], *text;
	size_t len = 0;
	FILE *f = open_memstream(&body, &len);
	const char *cgroup = cgroup_text(json_object_get(c, "cgroup"), buf, sizeof(buf));
	const char *workload = string_or(c, "workload", "?");
	int failed;

	if (f == NULL)
		return NULL;
	failed = each_arg(json_object_get(c, "args"), put_arg, f);
	if (cgroup != NULL)
		failed |= fprintf(f, ";cgroup=%s", cgroup) < 0;
	failed |= fclose(f) != 0;
	text = failed ? NULL : malloc(strlen(workload) + len + 3);
	if (text != NULL)
		sprintf(text, len ? "%s(%s)" : "%s%s", workload, len ? body + 1 : "");
	free(body);
	return text;
}

/* One token per companion workload: "also=WORKLOAD(OPTION;...)". */
static int add_also(struct experiment *e, json_t *also)
{
	size_t i;
	json_t *c;

	json_array_foreach(also, i, c) {
		char *text = also_text(c);
		int rc = text == NULL || add(e, PARAM_ALSO, "also", text);

		free(text);
		if (rc)
			return -1;
	}
	return 0;
}

static int add_switch_at(struct experiment *e, json_t *v)
{
	char buf[64];
	const char *text = scalar(v, buf, sizeof(buf));

	if (text != NULL)
		return add(e, PARAM_SWITCH_AT, "switch_at", text);
	if (json_is_array(v) || json_is_object(v)) {
		char *dump = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
		int rc = dump == NULL ? -1 : add(e, PARAM_SWITCH_AT, "switch_at", dump);
		free(dump);
		return rc;
	}
	return 0;	/* null or missing: no switch, the default */
}

/* The machine's shape (lab.sh run --numa, --numa-dimm, --swap, --thp,
 * --fs), a token each only when not the default (no --numa, disk swap,
 * the kernel's THP mode, ext4), so that tables of the default machine
 * keep their labels: "numa=2:192M+64M" with "+dimm128M" when node 0 has a
 * DIMM (the vCPUs follow from vcpus and the nodes), "swap=zram",
 * "thp=always", "fs=xfs". */
static int add_shape(struct experiment *e, json_t *params)
{
	json_t *numa = json_object_get(params, "numa");
	const char *swap = string_or(params, "swap", "disk");
	const char *thp = string_or(params, "thp", NULL);
	const char *fs = string_or(params, "fs", "ext4");

	if (json_is_object(numa)) {
		char buf[160];
		size_t len = 0, i;
		json_t *mib;

		len += snprintf(buf, sizeof(buf), "%lld", integer_or(numa, "nodes", 0));
		json_array_foreach(json_object_get(numa, "node_mib"), i, mib) {
			if (len < sizeof(buf))
				len += snprintf(buf + len, sizeof(buf) - len, "%s%lldM", i ? "+" : ":",
						(long long)json_integer_value(mib));
		}
		if (integer_or(numa, "dimm_mib", 0) > 0 && len < sizeof(buf))
			snprintf(buf + len, sizeof(buf) - len, "+dimm%lldM", integer_or(numa, "dimm_mib", 0));
		if (add(e, PARAM_NUMA, "numa", buf))
			return -1;
	}
	return (strcmp(swap, "disk") != 0 && add(e, PARAM_SWAP, "swap", swap)) ||
	       (thp != NULL && add(e, PARAM_THP, "thp", thp)) ||
	       (strcmp(fs, "ext4") != 0 && add(e, PARAM_FS, "fs", fs)) ? -1 : 0;
}

/* A --trace mode records tracer: it is "all", or tracer is one of its
 * comma-separated words ("events,perf"). */
static bool records(const char *trace, const char *tracer)
{
	size_t len = strlen(tracer);

	if (strcmp(trace, "all") == 0)
		return true;
	for (const char *p = trace; p != NULL; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strncmp(p, tracer, len) == 0 && (p[len] == ',' || p[len] == '\0'))
			return true;
	return false;
}

static int compare_tokens(const void *a, const void *b)
{
	const struct experiment_token *x = a, *y = b;

	if (x->param != y->param)
		return (int)x->param - (int)y->param;
	return strcmp(x->text, y->text);
}

int experiment_read(struct experiment *e, json_t *root)
{
	json_t *params = json_object_get(root, "params");
	char buf[64];

	memset(e, 0, sizeof(*e));
	if (add_kernel(e, root) || add_args(e, params))
		goto oom;
	snprintf(buf, sizeof(buf), "%lldM", integer_or(root, "mem_mib", DEFAULT_MEM_MIB));
	if (add(e, PARAM_MEM, "mem", buf))
		goto oom;
	snprintf(buf, sizeof(buf), "%lld", integer_or(root, "vcpus", DEFAULT_VCPUS));
	if (add(e, PARAM_VCPUS, "vcpus", buf) ||
	    add(e, PARAM_ACCEL, "accel", string_or(root, "accel", DEFAULT_ACCEL)))
		goto oom;
	const char *trace = string_or(root, "trace", DEFAULT_TRACE);
	if (add(e, PARAM_TRACE, "trace", trace))
		goto oom;
	/* The ring buffer exists only when trace-cmd records. */
	if (records(trace, "events")) {
		snprintf(buf, sizeof(buf), "%lldK",
			 integer_or(root, "trace_buffer_kb", DEFAULT_TRACE_BUFFER_KB));
		if (add(e, PARAM_TRACE_BUFFER, "trace_buffer", buf) ||
		    add(e, PARAM_TRACE_PROFILE, "profile",
			string_or(root, "trace_profile", DEFAULT_TRACE_PROFILE)))
			goto oom;
	}
	/* perf's sampling rate, recorded only when perf sampled. */
	if (json_is_integer(json_object_get(root, "perf_freq_hz"))) {
		snprintf(buf, sizeof(buf), "%lldHz", integer_or(root, "perf_freq_hz", 0));
		if (add(e, PARAM_PERF_FREQ, "perf", buf))
			goto oom;
	}
	if (add_list(e, PARAM_SYSCTL, "sysctl", json_object_get(params, "sysctl")) ||
	    add_list(e, PARAM_BOOT_ARGS, "boot", json_object_get(params, "boot_args")) ||
	    add_cgroup(e, json_object_get(params, "cgroup")) ||
	    add_switch_at(e, json_object_get(params, "switch_at")) ||
	    add_also(e, json_object_get(params, "also")) ||
	    add_shape(e, params))
		goto oom;
	/* No token for results from before host was recorded. */
	const char *host = string_or(json_object_get(root, "host"), "name", NULL);
	if (host != NULL && add(e, PARAM_HOST, "host", host))
		goto oom;
	/* Option order does not make another experiment. */
	if (e->count > 1)
		qsort(e->tokens, e->count, sizeof(*e->tokens), compare_tokens);
	return 0;
oom:
	experiment_free(e);
	return -1;
}

void experiment_free(struct experiment *e)
{
	for (size_t i = 0; i < e->count; i++)
		free(e->tokens[i].text);
	free(e->tokens);
	memset(e, 0, sizeof(*e));
}
