/* Fuzz target: trace-page-cache on one trace.dat (analysis/trace: the
 * page-cache insertions read by field name, the per-file page sets, the
 * CSV and the --json totals), through trace-page-cache's own main.  As
 * for trace-timeline, a broken file that makes libtracecmd read past the
 * end of its mapping ends in the tool's SIGBUS exit, which returns to the
 * fuzzer here. */
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "input_file.h"

int trace_page_cache_main(int argc, char **argv);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char out[256];
	const char *path = fuzz_input_path(data, size);

	snprintf(out, sizeof(out), "%s/out", fuzz_scratch_dir());
	char *csv[] = { "trace-page-cache", "-o", out, (char *)path, NULL };
	char *json[] = { "trace-page-cache", "--dev", "254:48", "--json", "-o", out,
			 (char *)path, NULL };
	char **modes[] = { csv, json };
	int argcs[] = { 4, 7 };

	for (size_t m = 0; m < sizeof(modes) / sizeof(*modes); m++) {
		if (sigsetjmp(fuzz_exit_jump, 1) != 0)
			return 0; /* SIGBUS: the tool exits 1 here, leaking what it held */
		optind = 0;
		trace_page_cache_main(argcs[m], modes[m]);
	}
	return 0;
}
