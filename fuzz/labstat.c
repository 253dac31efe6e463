/* Fuzz target: labstat on one result.json (analysis/stats: loading with
 * jansson, the setup tokens, metric paths, grouping and every report
 * format), through labstat's own main. */
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "input_file.h"

int labstat_main(int argc, char **argv);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const formats[] = { "text", "markdown", "csv", "csv-long" };
	char out[256];
	const char *path = fuzz_input_path(data, size);

	snprintf(out, sizeof(out), "%s/out", fuzz_scratch_dir());
	for (size_t f = 0; f < sizeof(formats) / sizeof(*formats); f++) {
		char *argv[] = { "labstat", "--format", (char *)formats[f], "-m", "wall_s",
				 "-m", "r=vmstat.pswpin+majflt", "-b", "lru", "-o", out,
				 (char *)path, NULL };

		optind = 0; /* getopt starts afresh each call */
		labstat_main(sizeof(argv) / sizeof(*argv) - 1, argv);
	}
	return 0;
}
