/* --top N for the perf tools (top_option.h). */
#include "top_option.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int top_option_parse(const char *prog, const char *text, long max, int *top)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno != 0 || *end != '\0' || v < 1 || v > max) {
		fprintf(stderr, "%s: bad --top '%s' (a number from 1)\n", prog, text);
		return -1;
	}
	*top = (int)v;
	return 0;
}
