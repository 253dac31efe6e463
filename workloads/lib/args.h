/* Strict number parsing and getopt error reporting for the workloads. */
#ifndef LAB_ARGS_H
#define LAB_ARGS_H

#include <getopt.h>
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

/*
 * The next option of argv, by getopt_long with the workloads' conventions:
 * long options only (and -h), none of getopt's own messages. Returns its
 * val, or -1 after the last one. An unknown option, a missing value or a
 * positional argument is one error line (arg_getopt_failed) and exit 2.
 */
int arg_next(int argc, char **argv, const struct option *longopts);

/* Exit 2 for the option arg_next just returned as c: "needs a value" for
 * ':', else "unknown option" (also for a val nobody claims). */
_Noreturn void arg_getopt_failed(int c, char **argv, int optind_now);

#endif
