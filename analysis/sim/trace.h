/* A reference string loaded into memory with page ids remapped to dense
 * 32-bit ids (first-seen order), so models can index flat arrays. */
#ifndef SIM_TRACE_H
#define SIM_TRACE_H

#include <stddef.h>
#include <stdint.h>

#define TRACE_NO_NEXT_USE UINT32_MAX

struct sim_trace {
	uint32_t *refs;     /* dense page id per reference */
	size_t n_refs;
	size_t distinct;
	uint32_t page_size; /* from the LABREFS1 header; 0 for text input */
	/* next_use[i]: index of the next reference to refs[i], or
	 * TRACE_NO_NEXT_USE; filled by trace_compute_next_use(). */
	uint32_t *next_use;
};

/* Load FILE (LABREFS1 binary or LIRS text, detected by the magic).
 * On failure returns -1 and writes one message (without program name or
 * newline) into err. */
int trace_load(const char *path, struct sim_trace *trace, char *err, size_t err_len);

/* Returns -1 when out of memory. */
int trace_compute_next_use(struct sim_trace *trace);

void trace_free(struct sim_trace *trace);

#endif
