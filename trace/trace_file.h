/* trace_file.h — a launch trace (trace.h) saved to a file and read back: how a whole
 * program's process (cudart, docs/architecture.md "Whole programs") hands each launch's
 * trace to gpulearn (--trace-json, the TUI). The format is this build's own (raw arrays
 * of trace.h's structs after a header with their counts and sizes), read only by the
 * same build on the same machine. The file comes from a process that runs untrusted
 * host code, so trace_load checks every count against the file's length and every index
 * an event, instruction, variable or snapshot holds before it hands the trace out: views
 * index the trace's arrays with them. */
#ifndef GL_TRACE_FILE_H
#define GL_TRACE_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "trace/trace.h"

/* Writes t (its launch, instructions, files, registers, variables, stored events, lane
 * addresses, printf text and snapshots; not its sink) to f. 0, or -1 on a write error. */
int trace_save(const trace_t *t, FILE *f);

/* Reads a trace trace_save wrote from f into a new trace (the caller frees it with
 * trace_free). NULL with why (whylen bytes) saying what is wrong: not such a file, cut
 * short, a count past the file's end, an index out of range, no memory. */
trace_t *trace_load(FILE *f, char *why, size_t whylen);

#endif
