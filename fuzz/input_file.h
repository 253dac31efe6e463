/* The fuzz input as a file: the lab's parsers take paths (as their users
 * give them), so each input is written to one memfd, reached by name. */
#ifndef FUZZ_INPUT_FILE_H
#define FUZZ_INPUT_FILE_H

#include <stddef.h>
#include <stdint.h>

/* "/proc/self/fd/N" holding exactly data[0..size); aborts on failure. */
const char *fuzz_input_path(const uint8_t *data, size_t size);

/* A scratch directory for outputs, made once per process. */
const char *fuzz_scratch_dir(void);

#endif
