/* TAP output for the C unit-test programs (tests/workloads/test-*.c). */
#ifndef LAB_TEST_TAP_H
#define LAB_TEST_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_count, tap_failed;

static void tap_ok(int pass, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void tap_ok(int pass, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	if (!pass)
		tap_failed++;
	printf("%sok %d - ", pass ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
