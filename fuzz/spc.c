/* Fuzz target: the SPC trace reader (workloads/lib/spc.c), as webtrace
 * --spc and the host-side check of carried-in files use it: load a
 * whole file, then map every request to its pages. */
#include <stddef.h>
#include <stdint.h>

#include "input_file.h"
#include "spc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spc_trace t;
	char err[512];

	if (spc_load(fuzz_input_path(data, size), &t, err, sizeof(err)) != 0)
		return 0;
	for (size_t i = 0; i < t.n; i++) {
		uint64_t first, last;

		spc_pages(&t.reqs[i], &first, &last);
		if (first > last || last >= SPC_MAX_PAGE)
			__builtin_trap(); /* the mapping's documented bounds */
	}
	spc_trace_free(&t);
	return 0;
}
