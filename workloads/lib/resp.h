/*
 * A client of the Redis serialization protocol (RESP2, redis.io's
 * "Redis serialization protocol specification") over a Unix socket:
 * commands go out as arrays of bulk strings, and the two replies the
 * kv-cache workload needs come back parsed: a status ("+OK") and a bulk
 * string ("$LEN" and LEN bytes, or "$-1" for a missing key). Several
 * commands may be written before their replies are read (pipelining).
 */
#ifndef LAB_RESP_H
#define LAB_RESP_H

#include <stddef.h>
#include <stdint.h>

struct resp {
	int fd;
	unsigned char *in;  /* received, not yet parsed: in[pos..len) */
	size_t pos, len, cap;
	unsigned char *out; /* queued commands */
	size_t out_len, out_cap;
	char error[128];    /* why the last call failed */
};

/* Connect to the Unix socket path. 0, or -1 with errno set. */
int resp_connect(struct resp *r, const char *path);
void resp_close(struct resp *r);

/* Queue a command of argc arguments (argv[i] of len[i] bytes). 0 or -1. */
int resp_queue(struct resp *r, int argc, const void *const *argv, const size_t *len);
/* Write every queued command. 0, or -1 (r->error says why). */
int resp_flush(struct resp *r);

/* Read a status reply; 0 when it is "+want", -1 otherwise (an error
 * reply, another reply, or the connection failed: r->error). */
int resp_read_status(struct resp *r, const char *want);

/* Read a bulk string reply of at most cap bytes into buf: its length, or
 * -2 for the null bulk string (no such key), -3 for a longer one (its
 * length in r->error), or -1 (r->error). */
int64_t resp_read_bulk(struct resp *r, void *buf, size_t cap);

/* Parse a reply held in the n bytes of buf, as if received (for tests). */
void resp_feed(struct resp *r, const void *buf, size_t n);

#endif
