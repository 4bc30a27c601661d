/* wire.h — the one codec for what gpulearn's processes hand each other through a pipe
 * (child.h messages): a run's result (gl_run_result, its trace and metrics included), a
 * grading's report (gl_grade_report), an exercise run (gl_exercise_result) and the GPU
 * worker's records (gl_device_info, gl_library_run). The TUI's worker (tui/job.c),
 * `grade --batch`'s workers (cli/cmd_grade.c), a sandboxed simulation (runtime/run.c)
 * and the GPU worker (runtime/worker.c) send them with it; every record that crosses a
 * pipe is written and read here, once. (Raw bytes stay raw: a buffer after a run, the
 * GPU worker's kernel times and addresses, a GPU trace buffer, which
 * runtime/instrument.c decodes.)
 *
 * Format: host byte order and the plain records of runtime/result.h as bytes (both ends
 * are the same executable); every pointer's contents follow in place, as a length and
 * its bytes (a NULL pointer is its own length, so NULL and "" stay apart, and an empty
 * array stays one; but a run's buffers, findings and buffer addresses, when it has
 * none, arrive as NULL, which the TUI's views read as "none"). Sending makes
 * two passes, one counting and one writing, so a trace of tens of MB is never copied.
 *
 * Never trusted: a message may come from a child that ran a learner's code, so decoding
 * checks every length against the bytes left, every count against a bound, every enum
 * against its list, cuts every fixed-size string at its last byte and checks that a
 * trace's indexes (an event's instruction, block, warp, lane values, register, printf
 * text and snapshot; a variable's register; a snapshot's bytes) point inside the trace.
 * Anything else refuses the whole message: the decoder returns -1 with nothing
 * allocated and the result zeroed. It never reads past the message. */
#ifndef GL_WIRE_H
#define GL_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/backend.h"
#include "runtime/exercise.h"
#include "runtime/grade.h"
#include "trace/trace.h"

/* Where encoded bytes go: a file descriptor, a growing buffer in memory, or nowhere
 * (counting only). Make one with gl_wire_out_fd, _mem or _count. */
typedef struct gl_wire_out {
    int fd;     /* >= 0: written here (gl_write_all) */
    int to_mem; /* 1: appended to mem */
    char *mem;  /* to_mem: the bytes, malloc'd (caller frees) */
    size_t cap; /* mem's size */
    uint64_t n; /* bytes put so far (written, appended or counted) */
    int ok;     /* 0 once a write or an allocation failed (later puts only count) */
} gl_wire_out;

gl_wire_out gl_wire_out_fd(int fd);
gl_wire_out gl_wire_out_mem(void);
gl_wire_out gl_wire_out_count(void);

/* Where decoded bytes come from: a message's payload. ok 0 once anything was refused. */
typedef struct gl_wire_in {
    const char *p, *end;
    int ok;
} gl_wire_in;

gl_wire_in gl_wire_in_of(const void *data, size_t len);

/* ------------------------------------------------------------- primitives */

void gl_wire_put_bytes(gl_wire_out *w, const void *p, size_t n);
void gl_wire_put_u64(gl_wire_out *w, uint64_t v);
/* A string; NULL travels as NULL. */
void gl_wire_put_str(gl_wire_out *w, const char *s);
/* n bytes at p (NULL travels as NULL). */
void gl_wire_put_blob(gl_wire_out *w, const void *p, size_t n);

/* n bytes into dst (zeros once in->ok is 0). */
void gl_wire_get_bytes(gl_wire_in *in, void *dst, size_t n);
uint64_t gl_wire_get_u64(gl_wire_in *in);
/* A string put by gl_wire_put_str, malloc'd and NUL-terminated (caller frees); NULL for
 * a NULL one or on error (in->ok 0). */
char *gl_wire_get_str(gl_wire_in *in);
/* A fixed-size char array of n bytes put with gl_wire_put_bytes, NUL-terminated at its
 * last byte whatever came. */
void gl_wire_get_chars(gl_wire_in *in, char *dst, size_t n);
/* A blob of whole elements of `size` bytes into *out (malloc'd, also when empty; NULL
 * for a NULL one) and *count; at most max elements. 0, or -1 (in->ok 0). */
int gl_wire_get_array(gl_wire_in *in, void **out, size_t *count, size_t size, size_t max);

/* ------------------------------------------------------------- gpulearn's types */

/* A call's outcome: its gl_status and message (NULL: none). */
void gl_wire_put_status(gl_wire_out *w, gl_status st, const char *msg);
/* *st (a gl_status, else refused) and the message into msg[len] (cut to fit; "" when
 * none; msg may be NULL to skip it). 0, or -1 with *st GL_ERR_TOOL. */
int gl_wire_get_status(gl_wire_in *in, gl_status *st, char *msg, size_t len);

/* A fault record (runtime/result.h): its kind and space checked, its strings ended. */
void gl_wire_put_fault(gl_wire_out *w, const gl_fault *f);
int gl_wire_get_fault(gl_wire_in *in, gl_fault *f); /* 0, or -1 (f zeroed) */

/* n findings (NULL travels as NULL): kinds, hazards and spaces checked, strings ended. */
void gl_wire_put_findings(gl_wire_out *w, const gl_finding *f, int n);
/* *f (malloc'd, caller frees; NULL when there are none) and *n. 0, or -1 with *f NULL. */
int gl_wire_get_findings(gl_wire_in *in, gl_finding **f, int *n);

/* Every field of r: buffers (their data or none, and their sizes), printf text, the
 * records, the PTX, the compiler's log and messages, timing, findings, the trace (not
 * its sink, a function of the sender's), the metrics (not their streaming state) and
 * the buffers' addresses. */
void gl_wire_put_run(gl_wire_out *w, const gl_run_result *r);
/* Into *r (zeroed first; free with gl_run_result_free). 0, or -1 with r zeroed. */
int gl_wire_get_run(gl_wire_in *in, gl_run_result *r);

/* A trace (NULL travels as none): every field but the sink and the capacities. */
void gl_wire_put_trace(gl_wire_out *w, const trace_t *t);
/* *t: a trace (trace_free) or NULL when none was sent. 0, or -1 with *t NULL. */
int gl_wire_get_trace(gl_wire_in *in, trace_t **t);

/* n buffers (data may be NULL: sizes travel alone). */
void gl_wire_put_buffers(gl_wire_out *w, const gl_buffer *b, int n);
/* *b (spec_buffers_free) and *n; NULL and 0 when none (n was 0). 0, or -1 with nothing
 * kept. */
int gl_wire_get_buffers(gl_wire_in *in, gl_buffer **b, int *n);

void gl_wire_put_report(gl_wire_out *w, const gl_grade_report *r);
/* Into *r (zeroed first; grade_report_free). 0, or -1 with r zeroed. */
int gl_wire_get_report(gl_wire_in *in, gl_grade_report *r);

void gl_wire_put_exercise(gl_wire_out *w, const gl_exercise_result *x);
/* Into *x (zeroed first; exercise_result_free). 0, or -1 with x zeroed. */
int gl_wire_get_exercise(gl_wire_in *in, gl_exercise_result *x);

/* Device properties and a library run (the GPU worker's INFO and LIBRARY messages):
 * the records as bytes, so the payload is the struct; decoding cuts their strings and
 * wants nothing after them. 0, or -1 with the record zeroed. */
void gl_wire_put_device_info(gl_wire_out *w, const gl_device_info *d);
int gl_wire_get_device_info(gl_wire_in *in, gl_device_info *d);
void gl_wire_put_library(gl_wire_out *w, const gl_library_run *l);
int gl_wire_get_library(gl_wire_in *in, gl_library_run *l);

/* ------------------------------------------------------------- messages */

/* Puts one object (put(w, obj)). */
typedef void (*gl_wire_put_fn)(gl_wire_out *w, const void *obj);

/* Sends put(obj) as one child.h message of type and arg: its bytes counted first, then
 * the header and the bytes written. 0, or -1 (errno set; EPIPE: the reader is gone). */
int gl_wire_send(int fd, uint32_t type, uint32_t arg, gl_wire_put_fn put, const void *obj);

/* put(obj) into memory: the bytes (caller frees) and *len; NULL when out of memory. */
char *gl_wire_encode(gl_wire_put_fn put, const void *obj, size_t *len);

#endif
