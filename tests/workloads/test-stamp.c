/* Unit tests of page stamps (lib/stamp.c) and the refs writer (lib/refs.c). */
#include "refs.h"
#include "stamp.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static _Alignas(8) unsigned char page[LAB_PAGE_SIZE];

static void stamp_tests(void)
{
	uint64_t key = stamp_key(1, 0, 42, 3);
	int all_caught = 1, first_bad = -1;

	stamp_fill(page, key);
	tap_ok(stamp_mismatch(page, key) == -1, "a stamped page verifies");
	tap_ok(stamp_mismatch(page, stamp_key(1, 0, 42, 2)) == 0,
	       "the previous generation's stamp does not verify");
	tap_ok(stamp_mismatch(page, stamp_key(1, 0, 43, 3)) == 0, "another page's stamp does not");
	tap_ok(stamp_mismatch(page, stamp_key(2, 0, 42, 3)) == 0, "another seed's stamp does not");
	tap_ok(stamp_mismatch(page, stamp_key(1, 1, 42, 3)) == 0,
	       "another object's stamp does not");
	/* Flip each byte in turn: every single-byte corruption is caught. */
	for (size_t i = 0; i < LAB_PAGE_SIZE; i++) {
		page[i] ^= 0x5a;
		if (stamp_mismatch(page, key) != (long)(i / 8 * 8) && first_bad < 0) {
			all_caught = 0;
			first_bad = (int)i;
		}
		page[i] ^= 0x5a;
	}
	tap_ok(all_caught, "every single-byte corruption is found at its word (first miss %d)",
	       first_bad);
	memset(page, 0, sizeof(page));
	tap_ok(zero_mismatch(page) == -1, "a zero page passes the zero check");
	page[4095] = 1;
	tap_ok(zero_mismatch(page) == 4088, "a non-zero last byte fails it at offset 4088");
	tap_ok(stamp_key(1, 0, 0, 0) != stamp_key(1, 0, 0, 1) &&
		       stamp_key(1, 0, 0, 0) != stamp_key(1, 0, 1, 0),
	       "keys differ across generation and page");
	tap_ok(stamp_key(7, 3, 1000, 2) == stamp_key(7, 3, 1000, 2), "keys are deterministic");
}

static void refs_tests(void)
{
	char dir[] = "/tmp/test-refs-XXXXXX", path[64];
	unsigned char buf[64];
	struct refs r;
	FILE *f;
	size_t n;
	uint64_t id;

	if (!mkdtemp(dir)) {
		tap_ok(0, "make a temporary directory");
		return;
	}
	snprintf(path, sizeof(path), "%s/refs", dir);
	tap_ok(refs_open(&r, path, LAB_PAGE_SIZE) == 0, "refs_open creates the temporary file");
	tap_ok(access(path, F_OK) != 0, "nothing appears under the final name before commit");
	refs_add(&r, REFS_ID(0, 5));
	refs_add(&r, REFS_ID(3, 0xffffffffffULL));
	refs_spill(&r); /* exercise the spill path as a full buffer would */
	refs_add(&r, REFS_ID(1, 7));
	tap_ok(refs_commit(&r) == 0, "refs_commit renames into place");
	f = fopen(path, "rb");
	n = f ? fread(buf, 1, sizeof(buf), f) : 0;
	if (f)
		fclose(f);
	tap_ok(n == 16 + 3 * 8, "file holds a 16-byte header and 3 ids (%zu bytes)", n);
	tap_ok(!memcmp(buf, "LABREFS1", 8), "magic is LABREFS1");
	tap_ok(buf[8] == 0x00 && buf[9] == 0x10 && buf[10] == 0 && buf[11] == 0,
	       "page size 4096 little-endian");
	tap_ok(!buf[12] && !buf[13] && !buf[14] && !buf[15], "flags are 0");
	memcpy(&id, buf + 24, 8);
	tap_ok(buf[16] == 5 && !memcmp(buf + 17, "\0\0\0\0\0\0\0", 7) &&
		       id == ((3ULL << 40) | 0xffffffffffULL),
	       "ids are (object << 40) | page in access order");

	snprintf(path, sizeof(path), "%s/aborted", dir);
	refs_open(&r, path, LAB_PAGE_SIZE);
	refs_add(&r, 1);
	refs_abort(&r);
	tap_ok(access(path, F_OK) != 0, "an aborted refs file leaves nothing behind");
	tap_ok(refs_open(&r, "/nonexistent-dir/refs", LAB_PAGE_SIZE) == -1,
	       "refs_open into a missing directory fails");
	refs_none(&r);
	refs_add(&r, 1);
	tap_ok(r.count == 0 && refs_commit(&r) == 0, "an inactive writer ignores references");

	snprintf(path, sizeof(path), "%s/refs", dir);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	stamp_tests();
	refs_tests();
	return tap_done();
}
