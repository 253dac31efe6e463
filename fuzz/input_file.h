/* The fuzz input as a file: the lab's parsers take paths (as their users
 * give them), so each input is written to one memfd, reached by name. */
#ifndef FUZZ_INPUT_FILE_H
#define FUZZ_INPUT_FILE_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

/* The entry point libFuzzer calls with each input: every target here
 * defines it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* "/proc/self/fd/N" holding exactly data[0..size); aborts on failure. */
const char *fuzz_input_path(const uint8_t *data, size_t size);

/* A scratch directory for outputs, made once per process. */
const char *fuzz_scratch_dir(void);

/* Tools whose own main runs in a target are built with -D_exit=fuzz_exit:
 * their _exit (the trace tools' SIGBUS exit) jumps back to the last
 * sigsetjmp(fuzz_exit_jump, 1) with status + 1, and the target returns to
 * the fuzzer (the input rejected, as the tool rejects it). */
extern sigjmp_buf fuzz_exit_jump;
void fuzz_exit(int status) __attribute__((noreturn));

#endif
