/* Parsing of the command-line values pagesim and refgen share: cache-size
 * lists ("100,200,400" and ranges "100:2000:100"), whole numbers, numbers
 * in a range, and a word from a list of choices.  trace-timeline and
 * trace-page-cache read their numeric options with parse_double too. */
#ifndef SIM_SIZES_H
#define SIM_SIZES_H

#include <stddef.h>

/* Upper bound on the number of sizes in one list, to catch typos such as
 * 1:100000000:1 before they run for hours. */
#define SIZES_MAX_COUNT 100000

/* Parses spec into a malloc'd array of positive sizes.  Returns -1 and
 * writes a message into err on a bad spec. */
int sizes_parse(const char *spec, size_t **sizes, size_t *count, char *err, size_t err_len);

/* Parses a whole decimal number (no sign, no suffix).  Returns -1 if text
 * is not one or overflows. */
int parse_u64(const char *text, unsigned long long *value);

/* Parses a finite decimal or floating number from min to max, the whole
 * of text (strtod's syntax).  Returns -1, leaving *value as it was, if
 * text is not one, overflows or is out of range. */
int parse_double(const char *text, double min, double max, double *value);

/* Sets *index to the position of text in choices (NULL-terminated).
 * Returns -1 if text is none of them. */
int parse_choice(const char *text, const char *const *choices, unsigned *index);

#endif
