#define _DEFAULT_SOURCE
#include "atomic_output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void release(struct atomic_output *out)
{
	free(out->final_path);
	free(out->temp_path);
	out->final_path = NULL;
	out->temp_path = NULL;
	out->stream = NULL;
	out->in_place = 0;
}

int atomic_output_open(struct atomic_output *out, const char *path)
{
	memset(out, 0, sizeof(*out));
	if (path == NULL || strcmp(path, "-") == 0) {
		out->stream = stdout;
		return 0;
	}
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		out->stream = fopen(path, "w");
		out->in_place = out->stream != NULL;
		return out->stream != NULL ? 0 : -1;
	}
	size_t len = strlen(path) + sizeof(".XXXXXX.tmp");
	out->final_path = strdup(path);
	out->temp_path = malloc(len);
	if (out->final_path == NULL || out->temp_path == NULL) {
		release(out);
		errno = ENOMEM;
		return -1;
	}
	snprintf(out->temp_path, len, "%s.XXXXXX.tmp", path);
	int fd = mkstemps(out->temp_path, 4);
	if (fd < 0) {
		int saved = errno;
		release(out);
		errno = saved;
		return -1;
	}
	out->stream = fdopen(fd, "w");
	if (out->stream == NULL) {
		int saved = errno;
		close(fd);
		unlink(out->temp_path);
		release(out);
		errno = saved;
		return -1;
	}
	return 0;
}

int atomic_output_commit(struct atomic_output *out)
{
	if (out->final_path == NULL) {
		int rc = fflush(out->stream) == 0 && !ferror(out->stream) ? 0 : -1;
		if (out->in_place && fclose(out->stream) != 0)
			rc = -1;
		release(out);
		return rc;
	}
	int failed = ferror(out->stream);
	if (fclose(out->stream) != 0)
		failed = 1;
	out->stream = NULL;
	if (failed || rename(out->temp_path, out->final_path) != 0) {
		int saved = failed ? EIO : errno;
		unlink(out->temp_path);
		release(out);
		errno = saved;
		return -1;
	}
	release(out);
	return 0;
}

void atomic_output_abort(struct atomic_output *out)
{
	if (out->final_path != NULL) {
		if (out->stream != NULL)
			fclose(out->stream);
		unlink(out->temp_path);
	} else if (out->in_place) {
		fclose(out->stream);
	}
	release(out);
}
