/* Unit tests of the RESP client's reply parser (lib/resp.c) on replies fed
 * in as if received: statuses, bulk strings, the null bulk string, error
 * replies and malformed or cut-off input. */
#include "resp.h"
#include "tap.h"

#include <string.h>

static void feed(struct resp *r, const char *s)
{
	resp_feed(r, s, strlen(s));
}

int main(void)
{
	struct resp r = { .fd = -1 };
	char buf[16];
	const void *argv[2] = { "GET", "k\r\n1" };
	size_t len[2] = { 3, 4 };

	feed(&r, "+OK\r\n$5\r\nhe\r\no\r\n$-1\r\n$0\r\n\r\n");
	tap_ok(resp_read_status(&r, "OK") == 0, "a status reply");
	tap_ok(resp_read_bulk(&r, buf, sizeof(buf)) == 5 && !memcmp(buf, "he\r\no", 5),
	       "a bulk string holding CRLF");
	tap_ok(resp_read_bulk(&r, buf, sizeof(buf)) == -2, "the null bulk string is a missing key");
	tap_ok(resp_read_bulk(&r, buf, sizeof(buf)) == 0, "an empty bulk string");
	tap_ok(resp_read_bulk(&r, buf, sizeof(buf)) == -1 && strstr(r.error, "ends early"),
	       "no more input: an error, not a hang");

	feed(&r, "-ERR wrong type\r\n");
	tap_ok(resp_read_bulk(&r, buf, sizeof(buf)) == -1 &&
		       !strcmp(r.error, "the server answered ERR wrong type"),
	       "an error reply says what the server said");
	feed(&r, "+QUEUED\r\n");
	tap_ok(resp_read_status(&r, "OK") == -1, "another status is refused");
	feed(&r, "$99\r\n");
	tap_ok(resp_read_bulk(&r, buf, sizeof(buf)) == -3 && strstr(r.error, "at most 16"),
	       "a value longer than the buffer is -3 (the caller's corrupt value)");
	resp_close(&r);
	r.fd = -1;
	feed(&r, "$3\r\nabcXY");
	tap_ok(resp_read_bulk(&r, buf, sizeof(buf)) == -1 && strstr(r.error, "without its CRLF"),
	       "a bulk string without its CRLF is refused");
	resp_close(&r);
	r.fd = -1;
	feed(&r, "$x\r\n");
	tap_ok(resp_read_bulk(&r, buf, sizeof(buf)) == -1 && strstr(r.error, "a bulk string expected"),
	       "a malformed length is refused");
	resp_close(&r);
	r.fd = -1;
	feed(&r, "+OK\rX");
	tap_ok(resp_read_status(&r, "OK") == -1 && strstr(r.error, "without CRLF"),
	       "a line without CRLF is refused");
	resp_close(&r);

	r.fd = -1;
	tap_ok(resp_queue(&r, 2, argv, len) == 0 && r.out_len == 23 &&
	       !memcmp(r.out, "*2\r\n$3\r\nGET\r\n$4\r\nk\r\n1\r\n", 23),
	       "a command goes out as an array of bulk strings, binary-safe");
	resp_close(&r);
	return tap_done();
}
