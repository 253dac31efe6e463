#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const char *prog_name = "workload";

void err_set_prog(const char *name)
{
	prog_name = name;
}

const char *err_prog(void)
{
	return prog_name;
}

static void vreport(const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", prog_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

_Noreturn void vdie(int code, const char *fmt, va_list ap)
{
	vreport(fmt, ap);
	exit(code);
}

_Noreturn void die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
	exit(code);
}

void warn_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
}
