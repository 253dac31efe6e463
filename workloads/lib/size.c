#include "size.h"

#include <string.h>

#define SIZE_LIMIT ((uint64_t)1 << 62)

static int suffix_shift(const char *s, int *shift)
{
	*shift = 0;
	if (!*s)
		return 0;
	switch (*s) {
	case 'k': case 'K':
		*shift = 10;
		break;
	case 'm': case 'M':
		*shift = 20;
		break;
	case 'g': case 'G':
		*shift = 30;
		break;
	case 't': case 'T':
		*shift = 40;
		break;
	default:
		return -1;
	}
	s++;
	if (!strcmp(s, "") || !strcmp(s, "B") || !strcmp(s, "iB"))
		return 0;
	return -1;
}

int size_parse(const char *s, uint64_t memtotal, uint64_t *out, const char **why)
{
	uint64_t whole = 0;
	double frac = 0, scale = 0.1, value;
	int digits = 0, has_frac = 0, shift = 0;

	*why = NULL;
	if (!s || !*s) {
		*why = "empty size";
		return -1;
	}
	if (*s == '-') {
		*why = "size must not be negative";
		return -1;
	}
	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		if (whole > (SIZE_LIMIT - 9) / 10) {
			*why = "size too large";
			return -1;
		}
		whole = whole * 10 + (uint64_t)(*s - '0');
	}
	if (*s == '.') {
		has_frac = 1;
		for (s++; *s >= '0' && *s <= '9'; s++, digits++, scale /= 10)
			frac += scale * (*s - '0');
	}
	if (!digits) {
		*why = "expected a number, e.g. 64M, 1.5G or 150%";
		return -1;
	}
	value = (double)whole + frac;
	if (!strcmp(s, "%")) {
		if (!memtotal) {
			*why = "percent sizes need MemTotal, which is unknown";
			return -1;
		}
		value = value / 100.0 * (double)memtotal;
	} else if (suffix_shift(s, &shift)) {
		*why = "unknown unit (use K, M, G, T or %)";
		return -1;
	} else {
		if (!shift && has_frac) {
			*why = "a byte count must be a whole number";
			return -1;
		}
		value *= (double)((uint64_t)1 << shift);
	}
	if (value >= (double)SIZE_LIMIT) {
		*why = "size too large";
		return -1;
	}
	if (value < 1.0) {
		*why = "size must be positive";
		return -1;
	}
	/* Exact integer path keeps large byte counts exact. */
	if (!has_frac && strcmp(s, "%"))
		*out = whole << shift;
	else
		*out = (uint64_t)value;
	return 0;
}
