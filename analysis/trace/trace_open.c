#define _POSIX_C_SOURCE 200809L
#include "trace_open.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *tool = "trace";
static char sigbus_msg[128];
static size_t sigbus_len;

/* libtracecmd maps the CPU data sections of the file; reading a page past
 * the end of a truncated file raises SIGBUS.  The tools open their output
 * only after reading the trace, so nothing is half-written then. */
static void on_sigbus(int sig)
{
	(void)sig;
	if (write(STDERR_FILENO, sigbus_msg, sigbus_len) < 0)
		_exit(1);
	_exit(1);
}

void trace_open_init(const char *prog)
{
	int n;

	tool = prog;
	n = snprintf(sigbus_msg, sizeof(sigbus_msg), "%s: trace.dat is truncated (data ends early)\n",
		     prog);
	sigbus_len = n > 0 && (size_t)n < sizeof(sigbus_msg) ? (size_t)n : 0;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	signal(SIGBUS, on_sigbus);
}

struct tracecmd_input *trace_open(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		fprintf(stderr, "%s: %s: %s\n", tool, path, strerror(errno));
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "%s: %s: not a regular file\n", tool, path);
		return NULL;
	}
	/* Headers, then the CPU data apart: tracecmd_open() frees a handle
	 * whose data fails to initialise with tracecmd_close(), which
	 * crashes (NULL read) on some corrupt files in libtracecmd (trace-cmd
	 * 3.1.6) (found by fuzz/, input in fuzz/regress/trace-timeline). Such
	 * a handle is left to the exit that follows instead. */
	struct tracecmd_input *handle = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (handle == NULL || tracecmd_init_data(handle) < 0) {
		fprintf(stderr, "%s: %s: not a readable trace-cmd trace.dat\n", tool, path);
		return NULL;
	}
	return handle;
}
