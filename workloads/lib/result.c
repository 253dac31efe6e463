#include "result.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static void append(struct result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void append(struct result *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(r->buf + r->len, sizeof(r->buf) - r->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(r->buf) - r->len - 1) {
		r->overflow = 1;
		return;
	}
	r->len += (size_t)n;
}

static void append_string(struct result *r, const char *s)
{
	append(r, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			append(r, "\\%c", c);
		else if (c < 0x20)
			append(r, "\\u%04x", c);
		else
			append(r, "%c", c);
	}
	append(r, "\"");
}

static void append_key(struct result *r, const char *key)
{
	append(r, ",");
	append_string(r, key);
	append(r, ":");
}

void result_init(struct result *r, const char *workload)
{
	r->len = 0;
	r->overflow = 0;
	r->buf[0] = 0;
	append(r, "{\"workload\":");
	append_string(r, workload);
}

void result_str(struct result *r, const char *key, const char *value)
{
	append_key(r, key);
	append_string(r, value);
}

void result_u64(struct result *r, const char *key, uint64_t value)
{
	append_key(r, key);
	append(r, "%llu", (unsigned long long)value);
}

void result_num(struct result *r, const char *key, double value)
{
	append_key(r, key);
	if (isfinite(value))
		append(r, "%.6g", value);
	else
		append(r, "null");
}

void result_rate(struct result *r, const char *key, double count, double seconds)
{
	result_num(r, key, seconds > 0 ? count / seconds : 0);
}

void result_bool(struct result *r, const char *key, int value)
{
	append_key(r, key);
	append(r, value ? "true" : "false");
}

const char *result_json(struct result *r)
{
	if (r->overflow)
		return NULL;
	r->buf[r->len] = '}';
	r->buf[r->len + 1] = 0;
	return r->buf;
}

int result_print(struct result *r)
{
	const char *json = result_json(r);

	if (!json)
		return -1;
	if (printf("RESULT %s\n", json) < 0 || fflush(stdout))
		return -1;
	return 0;
}
