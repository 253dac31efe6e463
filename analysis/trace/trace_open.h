/* Opening a trace.dat for the analysis tools: one error line naming the
 * tool and the file, never the libraries' chatter, and a clean exit when
 * a truncated file's mapped data ends early. */
#ifndef TRACE_OPEN_H
#define TRACE_OPEN_H

#include <trace-cmd.h>

/* Silences libtracecmd and libtraceevent and installs the SIGBUS guard;
 * call once before trace_open().  prog must outlive the process. */
void trace_open_init(const char *prog);

/* Returns the handle with its CPU data initialised, or NULL after one
 * error line on stderr. */
struct tracecmd_input *trace_open(const char *path);

#endif
