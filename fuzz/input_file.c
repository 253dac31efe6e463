#include "input_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

const char *fuzz_input_path(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];

	if (fd < 0) {
		fd = memfd_create("fuzz-input", 0);
		if (fd < 0) {
			perror("fuzz: memfd_create");
			abort();
		}
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) != 0) {
		perror("fuzz: ftruncate");
		abort();
	}
	for (size_t done = 0; done < size;) {
		ssize_t n = pwrite(fd, data + done, size - done, (off_t)done);

		if (n <= 0) {
			perror("fuzz: pwrite");
			abort();
		}
		done += (size_t)n;
	}
	return path;
}

static char scratch[] = "/tmp/lab-fuzz-XXXXXX";

/* The targets write their output as "out" in the scratch directory. */
static void remove_scratch(void)
{
	char out[sizeof(scratch) + 8];

	snprintf(out, sizeof(out), "%s/out", scratch);
	unlink(out);
	rmdir(scratch);
}

const char *fuzz_scratch_dir(void)
{
	static int made;

	if (!made) {
		if (mkdtemp(scratch) == NULL) {
			perror("fuzz: mkdtemp");
			abort();
		}
		atexit(remove_scratch);
		made = 1;
	}
	return scratch;
}

sigjmp_buf fuzz_exit_jump;

void fuzz_exit(int status)
{
	siglongjmp(fuzz_exit_jump, status + 1);
}
