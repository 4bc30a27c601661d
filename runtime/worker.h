/* worker.h — GPU work in a worker process ("Isolation").
 *
 * gl_worker_run forks a child that opens the CUDA driver, loads the PTX, allocates,
 * copies in, launches, synchronises, copies back and streams what it got (buffers,
 * device printf text, times, device properties, an error) to the parent over a pipe.
 * The parent never loads libcuda (CUDA initialised before fork() is unusable in the
 * child, and a faulting or hung kernel must not take the learner's session down): it
 * waits with poll() and a deadline, SIGKILLs a worker whose kernel runs past the time
 * limit, and reaps every child without blocking for long.
 *
 * Protocol (child -> parent, host byte order: both ends are the same binary): messages
 * of a header {uint32 type, uint32 arg, uint64 len} and len payload bytes.
 *   PHASE   arg = GL_WORKER_PHASE_*: the deadline restarts (KERNEL: the kernel time
 *           limit; HOST: the setup limit, for driver start, JIT, copies)
 *   BUFFER  arg = argument index, payload = the buffer's bytes after the first run
 *   STDOUT  payload = device printf output
 *   TIMES   payload = double[n], milliseconds of each timed repetition
 *   INFO    payload = gl_device_info (runtime/wire.h's record)
 *   ERROR   arg = gl_status, payload = "CUDA_ERROR_NAME\n" then the message
 *   DONE    arg = gl_status of the whole job; the last message
 *   ELAPSED payload = double, milliseconds of the first (untimed, result) run
 *   TRACE   (GPU traces, runtime/instrument.h) arg 0: payload = the trace buffer the
 *           instrumented kernel filled; arg 1: it could not run, payload = the message
 *   DPTR    (buffer addresses) payload = uint64[nargs], the device address of each
 *           argument's buffer (0 for scalars), sent once they are all allocated
 *   LIBRARY payload = gl_library_run (wire.h's record): the spec's "reference_library"
 *           (cublas.h), after the result run and the timed runs
 */
#ifndef GL_WORKER_H
#define GL_WORKER_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/backend.h"

/* Limit for everything else the worker does between two messages (driver start, PTX
 * JIT, copies of large buffers), seconds. */
#define GL_WORKER_SETUP_LIMIT_S 120.0

/* PHASE messages: HOST and KERNEL set the deadline; OPENED (sent once the driver and
 * device are open, a HOST phase too) tells the parent the GPU works. */
enum { GL_WORKER_PHASE_HOST = 0, GL_WORKER_PHASE_KERNEL = 1, GL_WORKER_PHASE_OPENED = 2 };

enum {
    GL_WORKER_MSG_PHASE = 1,
    GL_WORKER_MSG_BUFFER,
    GL_WORKER_MSG_STDOUT,
    GL_WORKER_MSG_TIMES,
    GL_WORKER_MSG_INFO,
    GL_WORKER_MSG_ERROR,
    GL_WORKER_MSG_DONE,
    GL_WORKER_MSG_ELAPSED,
    GL_WORKER_MSG_TRACE,     /* GPU traces (instrument.h) */
    GL_WORKER_MSG_DPTR,      /* buffer addresses */
    GL_WORKER_MSG_OCCUPANCY, /* int[5]: gpu_occupancy's figures for the launch */
    GL_WORKER_MSG_LIBRARY,   /* gl_library_run (runtime/cublas.h) */
};

/* What the worker is asked to do. The child sees the parent's memory as it was at
 * fork() (copy-on-write), so nothing here is sent over the pipe. */
typedef struct gl_worker_job {
    int info_only;         /* 1: only open the GPU and send gl_device_info */
    const gl_spec *spec;   /* the launch (info_only == 0) */
    const char *ptx;       /* PTX text to load */
    const char *kernel;    /* entry name in the PTX */
    gl_buffer *buffers;    /* spec->nargs host buffers, the initial contents */
    const uint64_t *slots; /* spec->nargs parameter values: scalars' bytes (pointers are
                               filled in by the worker with its device addresses) */
    double timeout_s;      /* kernel time limit; <= 0: GL_TIMEOUT_DEFAULT_S */
    int warmup, reps;      /* timing: warm-up runs, then reps timed runs (reps 0: none) */
    int want_info;         /* also send gl_device_info (timing and the roofline need the
                              peaks, the DRAM model the L2) */
    /* GPU traces (runtime/instrument.h): after the result run and the timed runs, load
     * trace_ptx (the instrumented PTX, whose entry `kernel` takes one more parameter),
     * copy the initial buffers in again, launch it once with a zeroed trace buffer of
     * gl_instrument_trace_bytes(blocks, warps per block, trace_records) bytes and send it back
     * (TRACE). NULL: no trace. A failure of this run is sent as TRACE arg 1 and does
     * not fail the job (the results were already sent). */
    const char *trace_ptx;
    uint64_t trace_records;
    /* The CUB library (runtime/cub.h) for a spec's "reference_library" of CUB, built by
     * the caller with gl_cub_prepare; NULL: no CUB run. */
    const char *cub_so;
} gl_worker_job;

/* How a job ended when it did not end well. */
typedef enum gl_worker_fault {
    GL_WORKER_OK = 0,
    GL_WORKER_CUDA_FAULT, /* the kernel faulted (illegal address, trap, assert, ...) */
    GL_WORKER_TIMEOUT,    /* the kernel ran past timeout_s; the worker was killed */
    GL_WORKER_DIED,       /* the worker died or broke the protocol */
} gl_worker_fault;

/* What came back. buffers are written in place into job->buffers (only if the kernel
 * ran to completion: BUFFER messages). Free with gl_worker_result_free. */
typedef struct gl_worker_result {
    gl_worker_fault fault;
    char cuda_error[64]; /* CUDA's error name, e.g. "CUDA_ERROR_ILLEGAL_ADDRESS", or "" */
    char *stdout_text;   /* device printf output of the first run, or NULL */
    double *times_ms;    /* reps entries (NULL if none) */
    int ntimes;
    int have_info;
    gl_device_info info;
    int buffers_back;  /* how many BUFFER messages arrived */
    int opened;        /* the worker opened the GPU (PHASE OPENED arrived) */
    double elapsed_ms; /* the first run's kernel time from CUDA events, or 0 */
    int occupancy[5];  /* gpu_occupancy's figures (registers, static shared bytes,
                               blocks per SM, SMs, threads per SM), all 0 if not sent */
    /* GPU traces: the trace buffer (malloc'd, trace_bytes long) or NULL; trace_error:
     * why the instrumented run failed, or "" */
    void *trace_buf;
    size_t trace_bytes;
    char trace_error[512];
    /* buffer addresses: the DPTR message, ndptr (= spec->nargs) device addresses (0 for
     * scalars), malloc'd, or NULL if it did not arrive */
    uint64_t *dptr;
    int ndptr;
    gl_library_run library; /* the LIBRARY message; asked 0 if none came */
} gl_worker_result;
void gl_worker_result_free(gl_worker_result *r);

/* Runs job in a worker process and waits for it (never longer than the deadlines
 * above). Returns GL_OK, or the status the worker reported (GL_ERR_NODEVICE,
 * GL_ERR_CUDA, GL_ERR_LAUNCH, GL_ERR_NOMEM, ...) with err->msg as the worker wrote it;
 * GL_ERR_FAULT for a CUDA kernel fault (res->fault = GL_WORKER_CUDA_FAULT) or a time-out
 * ("the kernel ran longer than 10 s and was stopped", res->fault = GL_WORKER_TIMEOUT);
 * GL_ERR_CUDA when the worker died ("the GPU worker died (signal 11)") or could not be
 * started. res is initialised in every case. */
gl_status gl_worker_run(const gl_worker_job *job, gl_worker_result *res, gl_error *err);

/* The child's end of the pipe, for the job body. */
typedef struct gl_worker_chan gl_worker_chan;
/* Sends one message; returns 0, or -1 when the parent is gone. */
int gl_worker_send(gl_worker_chan *ch, uint32_t type, uint32_t arg, const void *data, size_t len);

/* Test hook: replaces the child's body (the GPU job) by fn, which sends messages and
 * returns; the child then exits without sending DONE unless fn did. NULL restores the
 * real body. Lets tests exercise the protocol, the time-out and a dying worker on
 * machines without a GPU. */
typedef void (*gl_worker_body_fn)(gl_worker_chan *ch, const gl_worker_job *job);
void gl_worker_set_body(gl_worker_body_fn fn);

/* Whether a CUDA error name is a fault of the kernel itself (illegal or misaligned
 * address, illegal instruction, trap, assert, ...), as opposed to a launch or driver
 * problem. CUDA Driver API §6.1 (CUresult). */
int gl_worker_is_kernel_fault(const char *cuda_error_name);

/* Timing summary of n kernel times (milliseconds): median, min, max and the quartiles
 * (linear interpolation between order statistics). Sorts ms in place. */
typedef struct gl_time_stats {
    int n;
    double median_ms, min_ms, max_ms, q1_ms, q3_ms;
} gl_time_stats;
void gl_worker_time_stats_of(double *ms, int n, gl_time_stats *out);

#endif
