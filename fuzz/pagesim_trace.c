/* Fuzz target: pagesim's reference-string reader (analysis/sim/trace.c),
 * LABREFS1 binary or LIRS text, and the next-use table OPT builds on it. */
#include <stddef.h>
#include <stdint.h>

#include "input_file.h"
#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_trace t;
	char err[512];

	if (trace_load(fuzz_input_path(data, size), &t, err, sizeof(err)) != 0)
		return 0;
	if (t.distinct == 0 || t.distinct > t.n_refs)
		__builtin_trap();
	for (size_t i = 0; i < t.n_refs; i++)
		if (t.refs[i] >= t.distinct)
			__builtin_trap(); /* dense ids index the models' arrays */
	if (trace_compute_next_use(&t) == 0)
		for (size_t i = 0; i < t.n_refs; i++)
			if (t.next_use[i] != TRACE_NO_NEXT_USE &&
			    (t.next_use[i] <= i || t.refs[t.next_use[i]] != t.refs[i]))
				__builtin_trap();
	trace_free(&t);
	return 0;
}
