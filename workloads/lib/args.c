#include "args.h"

#include "err.h"
#include "size.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s || *s == ' ' || *s == '\t')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

uint64_t arg_u64(const char *option, const char *value)
{
	uint64_t v;

	if (parse_u64(value, &v))
		die(EXIT_LAB_USAGE, "bad %s value '%s': expected a non-negative integer",
		    option, value);
	return v;
}

uint64_t arg_positive(const char *option, const char *value)
{
	uint64_t v = arg_u64(option, value);

	if (v == 0)
		die(EXIT_LAB_USAGE, "bad %s value '%s': must be at least 1", option, value);
	return v;
}

const char *arg_program(const char *option, const char *value, const char *what)
{
	if (!*value)
		die(EXIT_LAB_USAGE, "bad %s value '': %s", option, what);
	return value;
}

uint64_t arg_size(const char *option, const char *value, uint64_t memtotal)
{
	uint64_t bytes;
	const char *why;

	if (size_parse(value, memtotal, &bytes, &why))
		die(EXIT_LAB_USAGE, "bad %s value '%s': %s", option, value, why);
	return bytes;
}

int arg_choice(const char *option, const char *value, const char *const *names)
{
	char expected[256] = "";
	size_t n = 0;

	for (; names[n]; n++)
		if (!strcmp(value, names[n]))
			return (int)n;
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(expected);

		snprintf(expected + len, sizeof(expected) - len, "%s%s",
			 i == 0 ? "" : i + 1 == n ? " or " : ", ", names[i]);
	}
	die(EXIT_LAB_USAGE, "bad %s value '%s': expected %s", option, value, expected);
}

enum phase arg_phase(const char *value)
{
	if (!strcmp(value, "setup"))
		return PHASE_SETUP;
	if (!strcmp(value, "run"))
		return PHASE_RUN;
	if (!strcmp(value, "all"))
		return PHASE_ALL;
	die(EXIT_LAB_USAGE, "bad --phase value '%s': expected setup, run or all", value);
}

const char *phase_name(enum phase p)
{
	switch (p) {
	case PHASE_SETUP:
		return "setup";
	case PHASE_RUN:
		return "run";
	default:
		return "all";
	}
}

_Noreturn void arg_getopt_failed(int c, char **argv, int optind_now)
{
	const char *arg = argv[optind_now - 1];

	if (c == ':')
		die(EXIT_LAB_USAGE, "option '%s' needs a value (see --help)", arg);
	die(EXIT_LAB_USAGE, "unknown option '%s' (see --help)", arg);
}

int arg_next(int argc, char **argv, const struct option *longopts)
{
	int c;

	opterr = 0;
	c = getopt_long(argc, argv, ":h", longopts, NULL);
	if (c == '?' || c == ':')
		arg_getopt_failed(c, argv, optind);
	if (c == -1 && optind < argc)
		die(EXIT_LAB_USAGE, "unexpected argument '%s' (see --help)", argv[optind]);
	return c;
}
