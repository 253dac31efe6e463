/* Fuzz target: trace-timeline on one trace.dat (analysis/trace: the
 * event sources resolved from the file's formats, the scan of every
 * record, the CSV and the summary), through trace-timeline's own main.
 * libtracecmd maps the file; where a broken file makes it read past the
 * end, trace-timeline's SIGBUS handler says so and exits 1: here that
 * exit returns to the fuzzer instead (the input is rejected, as the tool
 * rejects it). */
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "input_file.h"

int trace_timeline_main(int argc, char **argv);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *const modes[] = { "--interval=250", "--summary" };
	char out[256];
	const char *path = fuzz_input_path(data, size);

	snprintf(out, sizeof(out), "%s/out", fuzz_scratch_dir());
	for (size_t m = 0; m < sizeof(modes) / sizeof(*modes); m++) {
		char *argv[] = { "trace-timeline", "--quiet", modes[m], "-o", out,
				 (char *)path, NULL };

		if (sigsetjmp(fuzz_exit_jump, 1) != 0)
			return 0; /* SIGBUS: the tool exits 1 here, leaking what it held */
		optind = 0;
		trace_timeline_main(sizeof(argv) / sizeof(*argv) - 1, argv);
	}
	return 0;
}
