/* Unit tests of the SPC trace parser and page mapping (lib/spc.c). */
#include "spc.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The line with CR and LF made visible, so TAP output stays one line. */
static const char *show(const char *line)
{
	static char buf[256];
	size_t o = 0;

	for (; *line && o + 3 < sizeof(buf); line++) {
		if (*line == '\n' || *line == '\r') {
			buf[o++] = '\\';
			buf[o++] = *line == '\n' ? 'n' : 'r';
		} else {
			buf[o++] = *line;
		}
	}
	buf[o] = 0;
	return buf;
}

static void good(const char *line, unsigned asu, uint64_t lba, uint32_t size, char op, double ts)
{
	struct spc_req r;
	const char *why = NULL;
	int rc = spc_parse_line(line, &r, &why);

	tap_ok(rc == 1 && r.asu == asu && r.lba == lba && r.size == size && r.op == op &&
		       r.ts == ts,
	       "parses '%s'%s%s", show(line), why ? ": " : "", why ? why : "");
}

static void skipped(const char *line, const char *what)
{
	struct spc_req r;
	const char *why = NULL;

	tap_ok(spc_parse_line(line, &r, &why) == 0, "%s is skipped", what);
}

static void bad(const char *line, const char *why_part)
{
	struct spc_req r;
	const char *why = NULL;
	int rc = spc_parse_line(line, &r, &why);

	tap_ok(rc == -1 && why && strstr(why, why_part), "rejects '%s' (%s)", show(line),
	       why ? why : "accepted");
}

static void pages(uint64_t lba, uint32_t size, uint64_t first, uint64_t last)
{
	struct spc_req r = { .lba = lba, .size = size, .op = 'r' };
	uint64_t f, l;

	spc_pages(&r, &f, &l);
	tap_ok(f == first && l == last, "LBA %llu size %u touches pages %llu..%llu (got %llu..%llu)",
	       (unsigned long long)lba, size, (unsigned long long)first,
	       (unsigned long long)last, (unsigned long long)f, (unsigned long long)l);
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static void load_tests(void)
{
	char path[] = "/tmp/test-spc-XXXXXX";
	char err[256] = "", want[300];
	struct spc_trace t;
	int fd = mkstemp(path);

	if (fd < 0) {
		tap_ok(0, "make a temporary trace");
		return;
	}
	close(fd);
	write_file(path, "# a comment\n0,0,4096,r,0.0\n\n  \n1,8,8192,W,0.5\r\n");
	tap_ok(spc_load(path, &t, err, sizeof(err)) == 0 && t.n == 2 && t.reqs[1].asu == 1 &&
		       t.reqs[1].op == 'w',
	       "loads a trace with comments, blank lines and CRLF (%s)", err);
	spc_trace_free(&t);

	write_file(path, "0,0,4096,r,0.0\n# fine\n0,0,4096,r,0.1\n0,0,4096,x,0.2\n0,0,4096,r,0.3\n");
	snprintf(want, sizeof(want), "%s:4: opcode", path);
	tap_ok(spc_load(path, &t, err, sizeof(err)) == -1 && !strncmp(err, want, strlen(want)) &&
		       t.n == 0 && t.reqs == NULL,
	       "a malformed line is reported as file:line and nothing is kept (%s)", err);

	write_file(path, "0,0,4096,r,0.0\n0,0,4096,r\n");
	snprintf(want, sizeof(want), "%s:2: fewer than 5 fields", path);
	tap_ok(spc_load(path, &t, err, sizeof(err)) == -1 && !strncmp(err, want, strlen(want)),
	       "a short line names line 2 (%s)", err);

	write_file(path, "0,0,4096,r,0.0\n0,0,4096,r,0.1,extra\n");
	snprintf(want, sizeof(want), "%s:2: more than 5 fields", path);
	tap_ok(spc_load(path, &t, err, sizeof(err)) == -1 && !strncmp(err, want, strlen(want)),
	       "a sixth field is rejected (%s)", err);

	unlink(path);
	snprintf(want, sizeof(want), "%s: No such file", path);
	tap_ok(spc_load(path, &t, err, sizeof(err)) == -1 && !strncmp(err, want, strlen(want)),
	       "a missing file is reported (%s)", err);
}

int main(void)
{
	good("0,303567,8192,r,0.000000", 0, 303567, 8192, 'r', 0.0);
	good("2,1,512,R,12.25", 2, 1, 512, 'r', 12.25);
	good("1,7,4096,w,1", 1, 7, 4096, 'w', 1.0);
	good("3,0,1,W,0.5", 3, 0, 1, 'w', 0.5);
	good(" 0 , 8 , 4096 , r , 2.5 \n", 0, 8, 4096, 'r', 2.5);
	good("0,8,4096,r,2.5\r\n", 0, 8, 4096, 'r', 2.5);
	good("4095,0,4096,r,1e3", 4095, 0, 4096, 'r', 1000.0);
	good("0,0,16777216,r,0", 0, 0, 16777216, 'r', 0.0);
	good("0,8796093022200,4096,r,0", 0, 8796093022200ULL, 4096, 'r', 0.0);
	skipped("", "an empty line");
	skipped("   \t\n", "a blank line");
	skipped("# ASU,LBA,Size,Opcode,Timestamp", "a comment");
	skipped("  # indented comment", "an indented comment");
	bad("0,0,4096,r", "fewer than 5 fields");
	bad("0,0,4096,r,0,9", "more than 5 fields");
	bad("x,0,4096,r,0", "ASU");
	bad("-1,0,4096,r,0", "ASU");
	bad("4096,0,4096,r,0", "ASU above");
	bad("0,-8,4096,r,0", "LBA");
	bad("0,1.5,4096,r,0", "LBA");
	bad("0,,4096,r,0", "LBA");
	bad("0,0,0,r,0", "size is 0");
	bad("0,0,-4096,r,0", "size");
	bad("0,0,16777217,r,0", "size above");
	bad("0,0,4096,x,0", "opcode");
	bad("0,0,4096,read,0", "opcode");
	bad("0,0,4096,,0", "opcode");
	bad("0,0,4096,r,-1", "timestamp");
	bad("0,0,4096,r,abc", "timestamp");
	bad("0,0,4096,r,nan", "timestamp");
	bad("0,0,4096,r,", "timestamp");
	bad("0,8796093022209,4096,r,0", "LBA beyond");
	bad("0,8796093022200,8192,r,0", "ends beyond");
	bad("0,99999999999999999999999,4096,r,0", "LBA");
	pages(0, 4096, 0, 0);
	pages(0, 4097, 0, 1);
	pages(0, 1, 0, 0);
	pages(7, 512, 0, 0);
	pages(7, 513, 0, 1);
	pages(8, 4096, 1, 1);
	pages(1, 8192, 0, 2);
	pages(16, 32768, 2, 9);
	load_tests();
	return tap_done();
}
