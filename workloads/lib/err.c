#include "err.h"

#include <pthread.h>
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

/* Held, never released, by the thread that ends the process: a second
 * thread failing at the same moment waits here instead of calling exit()
 * again (get-scan's streams fail in threads of their own). Recursive: the
 * failure paths call each other. */
static pthread_mutex_t exit_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

void err_claim_exit(void)
{
	pthread_mutex_lock(&exit_lock);
}

_Noreturn void vdie(int code, const char *fmt, va_list ap)
{
	err_claim_exit();
	vreport(fmt, ap);
	exit(code);
}

_Noreturn void die(int code, const char *fmt, ...)
{
	va_list ap;

	err_claim_exit();
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
