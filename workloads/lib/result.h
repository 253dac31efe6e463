/* The single "RESULT {json}" line every workload prints on stdout. */
#ifndef LAB_RESULT_H
#define LAB_RESULT_H

#include <stddef.h>
#include <stdint.h>

struct result {
	char buf[8192]; /* a YCSB sequence's per-mix fields take ~3 KiB */
	size_t len;
	int overflow;
};

void result_init(struct result *r, const char *workload);
void result_str(struct result *r, const char *key, const char *value);
void result_u64(struct result *r, const char *key, uint64_t value);
void result_num(struct result *r, const char *key, double value);
/* key = count / seconds, a rate over a timed phase; 0 when the phase took
 * no measurable time. */
void result_rate(struct result *r, const char *key, double count, double seconds);
void result_bool(struct result *r, const char *key, int value);
/* Print "RESULT {...}" and a newline on stdout; returns 0 or -1. */
int result_print(struct result *r);
/* The JSON object without the prefix (for tests). */
const char *result_json(struct result *r);

#endif
