#include "resp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define IN_CHUNK 65536

int resp_connect(struct resp *r, const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sa.sun_path, path);
	r->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (r->fd < 0)
		return -1;
	if (connect(r->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int err = errno;

		close(r->fd);
		r->fd = -1;
		errno = err;
		return -1;
	}
	return 0;
}

void resp_close(struct resp *r)
{
	if (r->fd >= 0)
		close(r->fd);
	free(r->in);
	free(r->out);
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}

static int out_reserve(struct resp *r, size_t more)
{
	size_t cap = r->out_cap ? r->out_cap : 4096;
	unsigned char *p;

	while (cap - r->out_len < more)
		cap *= 2;
	if (cap == r->out_cap)
		return 0;
	p = realloc(r->out, cap);
	if (!p) {
		snprintf(r->error, sizeof(r->error), "out of memory");
		return -1;
	}
	r->out = p;
	r->out_cap = cap;
	return 0;
}

static int out_printf(struct resp *r, const char *fmt, unsigned long long v)
{
	char head[32];
	int n = snprintf(head, sizeof(head), fmt, v);

	if (out_reserve(r, (size_t)n))
		return -1;
	memcpy(r->out + r->out_len, head, (size_t)n);
	r->out_len += (size_t)n;
	return 0;
}

int resp_queue(struct resp *r, int argc, const void *const *argv, const size_t *len)
{
	if (out_printf(r, "*%llu\r\n", (unsigned long long)argc))
		return -1;
	for (int i = 0; i < argc; i++) {
		if (out_printf(r, "$%llu\r\n", (unsigned long long)len[i]) ||
		    out_reserve(r, len[i] + 2))
			return -1;
		memcpy(r->out + r->out_len, argv[i], len[i]);
		r->out_len += len[i];
		memcpy(r->out + r->out_len, "\r\n", 2);
		r->out_len += 2;
	}
	return 0;
}

int resp_flush(struct resp *r)
{
	size_t done = 0;

	while (done < r->out_len) {
		ssize_t n = write(r->fd, r->out + done, r->out_len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(r->error, sizeof(r->error), "cannot send: %s", strerror(errno));
			return -1;
		}
		done += (size_t)n;
	}
	r->out_len = 0;
	return 0;
}

/* At least n bytes in in[pos..len); 0, or -1 when the connection ends. */
static int fill(struct resp *r, size_t n)
{
	while (r->len - r->pos < n) {
		ssize_t got;

		if (r->pos > 0) {
			memmove(r->in, r->in + r->pos, r->len - r->pos);
			r->len -= r->pos;
			r->pos = 0;
		}
		if (r->cap - r->len < IN_CHUNK || r->cap < n) {
			size_t cap = r->cap + (n > IN_CHUNK ? n : IN_CHUNK);
			unsigned char *p = realloc(r->in, cap);

			if (!p) {
				snprintf(r->error, sizeof(r->error), "out of memory");
				return -1;
			}
			r->in = p;
			r->cap = cap;
		}
		if (r->fd < 0) {
			snprintf(r->error, sizeof(r->error), "the reply ends early");
			return -1;
		}
		got = read(r->fd, r->in + r->len, r->cap - r->len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			snprintf(r->error, sizeof(r->error), "the server closed the connection%s%s",
				 got < 0 ? ": " : "", got < 0 ? strerror(errno) : "");
			return -1;
		}
		r->len += (size_t)got;
	}
	return 0;
}

/* The next line without its CRLF, NUL-terminated in place; NULL on error. */
static char *read_line(struct resp *r)
{
	for (size_t scanned = 0;;) {
		unsigned char *cr;

		if (fill(r, scanned + 2))
			return NULL;
		cr = memchr(r->in + r->pos + scanned, '\r', r->len - r->pos - scanned);
		if (cr && cr + 1 < r->in + r->len) {
			char *line = (char *)r->in + r->pos;

			if (cr[1] != '\n') {
				snprintf(r->error, sizeof(r->error), "a reply line without CRLF");
				return NULL;
			}
			*cr = 0;
			r->pos = (size_t)(cr - r->in) + 2;
			return line;
		}
		scanned = r->len - r->pos - (cr ? 1 : 0);
	}
}

static void unexpected(struct resp *r, const char *line, const char *wanted)
{
	if (line[0] == '-')
		snprintf(r->error, sizeof(r->error), "the server answered %.100s", line + 1);
	else
		snprintf(r->error, sizeof(r->error), "%s expected, got '%.60s'", wanted, line);
}

int resp_read_status(struct resp *r, const char *want)
{
	char *line = read_line(r);

	if (!line)
		return -1;
	if (line[0] != '+' || strcmp(line + 1, want)) {
		unexpected(r, line, want);
		return -1;
	}
	return 0;
}

int64_t resp_read_bulk(struct resp *r, void *buf, size_t cap)
{
	char *line = read_line(r), *end;
	unsigned long long n;

	if (!line)
		return -1;
	if (!strcmp(line, "$-1"))
		return -2;
	if (line[0] != '$' || line[1] < '0' || line[1] > '9') {
		unexpected(r, line, "a bulk string");
		return -1;
	}
	errno = 0;
	n = strtoull(line + 1, &end, 10);
	if (*end || errno) {
		unexpected(r, line, "a bulk string");
		return -1;
	}
	if (n > cap) {
		snprintf(r->error, sizeof(r->error), "a value of %llu bytes, at most %zu expected",
			 n, cap);
		return -3;
	}
	if (fill(r, (size_t)n + 2))
		return -1;
	if (memcmp(r->in + r->pos + n, "\r\n", 2)) {
		snprintf(r->error, sizeof(r->error), "a bulk string without its CRLF");
		return -1;
	}
	memcpy(buf, r->in + r->pos, (size_t)n);
	r->pos += (size_t)n + 2;
	return (int64_t)n;
}

void resp_feed(struct resp *r, const void *buf, size_t n)
{
	if (r->cap - r->len < n) {
		unsigned char *p = realloc(r->in, r->len + n);

		if (!p)
			abort();
		r->in = p;
		r->cap = r->len + n;
	}
	memcpy(r->in + r->len, buf, n);
	r->len += n;
}
