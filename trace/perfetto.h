/* perfetto.h — a launch trace (trace/trace.h) as Chrome Trace Event JSON, which Perfetto
 * (ui.perfetto.dev) and chrome://tracing open (`gpulearn run --trace-json FILE`).
 *
 * Layout: one process per SM ("SM 0"), in it one track per block ("block (x,y,z)", a
 * slice from its start to its end) and one per warp of the block ("block (x,y,z) warp
 * w"), whose slices are the warp running (from an instruction issue to the next barrier
 * arrival, with the number of instructions and the source lines) and waiting at a
 * barrier ("bar.sync wait, line N", from arrival to release). Device printf output is
 * an instant event on its warp's track. A truncated trace says so with a global instant
 * event "trace truncated".
 *
 * Time: the trace's clock as microseconds. On the simulator that clock counts warp
 * instructions issued in the launch, so "1 us" reads "1 warp instruction" (otherData
 * says so). A GPU trace (runtime/instrument.h: block and memory events, no issue
 * events) shows blocks on SMs over %globaltimer time instead: ts in microseconds since
 * the first event, each block slice with its SM and its count of memory requests, no
 * warp tracks. Format: "Trace Event Format" (Google, 2016), events of phase X (complete),
 * i (instant) and M (metadata). */
#ifndef GL_PERFETTO_H
#define GL_PERFETTO_H

#include <stdio.h>

#include "trace/trace.h"

/* What gl_perfetto_write reports. trace/ sits below runtime/, so it has its own status
 * rather than runtime/gl.h's; callers map it (cli/cmd_run.c). */
typedef enum gl_perfetto_status {
    GL_PERFETTO_OK = 0,
    GL_PERFETTO_NO_TRACE, /* t is NULL or was recorded at TRACE_OFF (no block events) */
    GL_PERFETTO_NOMEM,    /* out of memory; what was written to f is incomplete */
    GL_PERFETTO_WRITE,    /* f reported a write error */
} gl_perfetto_status;

/* Writes t as Chrome Trace Event JSON to f. clock_note describes the time unit for
 * otherData (NULL: the simulator's). */
gl_perfetto_status gl_perfetto_write(FILE *f, const trace_t *t, const char *clock_note);

/* A short message for s, for "gpulearn: ..." lines ("no trace was recorded"). Static. */
const char *gl_perfetto_message(gl_perfetto_status s);

#endif
