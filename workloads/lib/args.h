/* Strict number parsing and getopt error reporting for the workloads. */
#ifndef LAB_ARGS_H
#define LAB_ARGS_H

#include <stdint.h>

/* Plain decimal, no sign, no spaces, no trailing text, no overflow.
 * Returns 0 on success, -1 otherwise. */
int parse_u64(const char *s, uint64_t *out);

/* A finite decimal number without leading spaces or trailing text. */
int parse_double(const char *s, double *out);

/* Parse a --seed / --passes style value or exit 2 naming the option. */
uint64_t arg_u64(const char *option, const char *value);
/* As arg_u64 but the value must be at least 1. */
uint64_t arg_positive(const char *option, const char *value);

/* A program to run (--fio, --redis, --rg): any non-empty value, or exit 2
 * with "bad OPTION value '': WHAT". */
const char *arg_program(const char *option, const char *value, const char *what);

/* Parse --size style values (see size.h) or exit 2 naming the option. */
uint64_t arg_size(const char *option, const char *value, uint64_t memtotal);

/* The index of value in the NULL-terminated names, or exit 2 with
 * "bad OPTION value 'X': expected A, B or C". */
int arg_choice(const char *option, const char *value, const char *const *names);

enum phase { PHASE_SETUP = 1, PHASE_RUN = 2, PHASE_ALL = 3 };
enum phase arg_phase(const char *value);
const char *phase_name(enum phase p);

/* Report what getopt_long (optstring starting with ':') rejected and exit 2.
 * c is the value getopt_long returned ('?' or ':'). */
_Noreturn void arg_getopt_failed(int c, char **argv, int optind_now);

/* Exit 2 if there are positional arguments left. */
void arg_no_positionals(int argc, char **argv, int optind_now);

#endif
