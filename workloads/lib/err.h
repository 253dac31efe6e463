/* Error reporting and exit codes shared by every workload (CONTRACTS.md). */
#ifndef LAB_ERR_H
#define LAB_ERR_H

#include <stdarg.h>

enum lab_exit {
	EXIT_LAB_OK = 0,
	EXIT_LAB_RUNTIME = 1,
	EXIT_LAB_USAGE = 2,
	EXIT_LAB_VERIFY = 3,
};

/* The name printed before every error; set once in main(). */
void err_set_prog(const char *name);
const char *err_prog(void);

/* Print "PROG: message" on stderr and exit with code. */
/* Become the one thread that ends the process (die, vdie and
 * wl_verify_failed call it first); another that fails meanwhile waits. */
void err_claim_exit(void);

_Noreturn void die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

_Noreturn void vdie(int code, const char *fmt, va_list ap);

/* Print "PROG: message" on stderr and continue. */
void warn_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
