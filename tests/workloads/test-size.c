/* Unit tests of size parsing (lib/size.c) and MemTotal reading (lib/meminfo.c). */
#include "meminfo.h"
#include "size.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MIB (1024ULL * 1024)

static void good(const char *s, uint64_t memtotal, uint64_t want)
{
	uint64_t got = 0;
	const char *why = NULL;
	int rc = size_parse(s, memtotal, &got, &why);

	tap_ok(rc == 0 && got == want, "size '%s' is %llu (got %llu%s%s)", s,
	       (unsigned long long)want, (unsigned long long)got, why ? ", " : "",
	       why ? why : "");
}

static void bad(const char *s, const char *why_part)
{
	uint64_t got = 0;
	const char *why = NULL;
	int rc = size_parse(s, 256 * MIB, &got, &why);

	tap_ok(rc == -1 && why && strstr(why, why_part), "size '%s' is rejected (%s)", s,
	       why ? why : "accepted");
}

static void meminfo_tests(void)
{
	char path[] = "/tmp/test-meminfo-XXXXXX";
	int fd = mkstemp(path);
	const char text[] = "MemTotalX:  1 kB\nMemTotal:       262144 kB\nMemFree: 5 kB\n";
	uint64_t bytes = 0;

	if (fd < 0 || write(fd, text, sizeof(text) - 1) != (ssize_t)(sizeof(text) - 1)) {
		tap_ok(0, "write a meminfo sample");
		return;
	}
	close(fd);
	int rc = meminfo_read(path, "MemTotal", &bytes);

	tap_ok(rc == 0 && bytes == 256 * MIB, "MemTotal read from a sample is 256 MiB (got %llu)",
	       (unsigned long long)bytes);
	tap_ok(meminfo_read(path, "SwapTotal", &bytes) == -1, "missing key is an error");
	unlink(path);
	tap_ok(meminfo_read(path, "MemTotal", &bytes) == -1, "missing file is an error");
	tap_ok(meminfo_total() > 0, "this machine's MemTotal is readable");
}

int main(void)
{
	good("4096", 0, 4096);
	good("1", 0, 1);
	good("4K", 0, 4096);
	good("4k", 0, 4096);
	good("4KiB", 0, 4096);
	good("4KB", 0, 4096);
	good("64M", 0, 64 * MIB);
	good("1.5G", 0, 1536 * MIB);
	good("2T", 0, 2ULL << 40);
	good("150%", 256 * MIB, 384 * MIB);
	good("12.5%", 256 * MIB, 32 * MIB);
	good("100%", 1000, 1000);
	bad("", "empty");
	bad("12Q", "unknown unit");
	bad("0", "positive");
	bad("0K", "positive");
	bad("0%", "positive");
	bad("-5", "negative");
	bad("-5M", "negative");
	bad("M", "expected a number");
	bad("1.5", "whole number");
	bad(" 4K", "expected a number");
	bad("4K ", "unknown unit");
	bad("4KiBB", "unknown unit");
	bad("4%%", "unknown unit");
	bad("99999999999999999999", "too large");
	bad("5000000T", "too large");
	{
		uint64_t got;
		const char *why;

		tap_ok(size_parse("50%", 0, &got, &why) == -1 && strstr(why, "MemTotal"),
		       "percent without a known MemTotal is an error");
	}
	meminfo_tests();
	return tap_done();
}
