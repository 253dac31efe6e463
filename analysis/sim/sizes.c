#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sizes.h"

int parse_choice(const char *text, const char *const *choices, unsigned *index)
{
	for (unsigned i = 0; choices[i]; i++) {
		if (strcmp(text, choices[i]) == 0) {
			*index = i;
			return 0;
		}
	}
	return -1;
}

int parse_u64(const char *text, unsigned long long *value)
{
	unsigned long long v = 0;

	if (!*text)
		return -1;
	for (const char *p = text; *p; p++) {
		unsigned digit = (unsigned)(*p - '0');

		if (*p < '0' || *p > '9' || v > (~0ULL - digit) / 10)
			return -1;
		v = v * 10 + digit;
	}
	*value = v;
	return 0;
}

int parse_double(const char *text, double min, double max, double *value)
{
	char *end;
	double v;

	if (!*text)
		return -1;
	errno = 0;
	v = strtod(text, &end);
	if (*end || errno || !isfinite(v) || v < min || v > max)
		return -1;
	*value = v;
	return 0;
}

static int sizes_push(size_t **sizes, size_t *count, size_t *cap, unsigned long long value,
		      char *err, size_t err_len)
{
	if (*count >= SIZES_MAX_COUNT) {
		snprintf(err, err_len, "more than %d cache sizes", SIZES_MAX_COUNT);
		return -1;
	}
	if (*count == *cap) {
		size_t new_cap = *cap ? *cap * 2 : 16;
		size_t *grown = realloc(*sizes, new_cap * sizeof(*grown));

		if (!grown) {
			snprintf(err, err_len, "out of memory");
			return -1;
		}
		*sizes = grown;
		*cap = new_cap;
	}
	(*sizes)[(*count)++] = (size_t)value;
	return 0;
}

static int sizes_item(char *item, size_t **sizes, size_t *count, size_t *cap, char *err, size_t err_len)
{
	unsigned long long v[3];
	char *fields[3];
	int n = 0;
	char *p = item;
	char shown[41];

	snprintf(shown, sizeof(shown), "%s", item);

	for (;;) {
		if (n == 3)
			goto bad;
		fields[n++] = p;
		p = strchr(p, ':');
		if (!p)
			break;
		*p++ = '\0';
	}
	if (n == 2)
		goto bad;
	for (int i = 0; i < n; i++)
		if (parse_u64(fields[i], &v[i]) < 0 || v[i] == 0)
			goto bad;
	if (n == 1)
		return sizes_push(sizes, count, cap, v[0], err, err_len);
	if (v[0] > v[1])
		goto bad;
	for (unsigned long long s = v[0]; s <= v[1]; s += v[2]) {
		if (sizes_push(sizes, count, cap, s, err, err_len) < 0)
			return -1;
		if (v[1] - s < v[2])
			break;
	}
	return 0;
bad:
	snprintf(err, err_len,
		 "bad cache size '%s' (want a positive N or FIRST:LAST:STEP with FIRST <= LAST)", shown);
	return -1;
}

int sizes_parse(const char *spec, size_t **sizes, size_t *count, char *err, size_t err_len)
{
	char *copy = strdup(spec);
	size_t cap = 0;
	char *item, *rest;

	*sizes = NULL;
	*count = 0;
	if (!copy) {
		snprintf(err, err_len, "out of memory");
		return -1;
	}
	rest = copy;
	do {
		item = rest;
		rest = strchr(rest, ',');
		if (rest)
			*rest++ = '\0';
		if (sizes_item(item, sizes, count, &cap, err, err_len) < 0) {
			free(copy);
			free(*sizes);
			*sizes = NULL;
			*count = 0;
			return -1;
		}
	} while (rest);
	free(copy);
	return 0;
}
