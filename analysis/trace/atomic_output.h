/* Output files that appear whole or not at all: write to a temporary
 * file beside the target, rename it over the target on success.  A
 * target that exists and is no regular file (/dev/null, a FIFO) is
 * written in place: renaming over it would replace the device. */
#ifndef ATOMIC_OUTPUT_H
#define ATOMIC_OUTPUT_H

#include <stdio.h>

struct atomic_output {
	FILE *stream;
	char *final_path;	/* NULL when writing to stdout */
	char *temp_path;
	int in_place;		/* a device or FIFO, opened as it is */
};

/* path NULL or "-" means stdout.  Returns 0, or -1 with errno set. */
int atomic_output_open(struct atomic_output *out, const char *path);
/* Flushes and renames into place.  Returns 0, or -1 with errno set
 * (the temporary file is removed then). */
int atomic_output_commit(struct atomic_output *out);
/* Drops everything written so far. */
void atomic_output_abort(struct atomic_output *out);

#endif
