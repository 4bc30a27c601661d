/* worker.c — GPU work in a forked worker process; see worker.h for the protocol.
 *
 * The parent side starts, reads and stops the worker through runtime/child (plain
 * POSIX); only the child's body touches the CUDA driver, through gpu.c. */
#include "runtime/worker.h"
#include "runtime/child.h"
#include "runtime/cub.h"
#include "runtime/cublas.h"
#include "runtime/instrument.h"
#include "runtime/wire.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

struct gl_worker_chan {
    int fd; /* write end of the pipe */
};

static gl_worker_body_fn body_override;

void gl_worker_set_body(gl_worker_body_fn fn)
{
    body_override = fn;
}

void gl_worker_result_free(gl_worker_result *r)
{
    if (!r)
        return;
    free(r->stdout_text);
    free(r->times_ms);
    free(r->trace_buf);
    free(r->dptr);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------------ child side */

int gl_worker_send(gl_worker_chan *ch, uint32_t type, uint32_t arg, const void *data, size_t len)
{
    return gl_child_send(ch->fd, type, arg, data, len);
}

int gl_worker_is_kernel_fault(const char *name)
{
    /* CUresult values that mean the kernel itself went wrong (the context is then
     * unusable, CUDA Driver API §6.1), plus the display watchdog's time-out. */
    static const char *const faults[] = {
        "CUDA_ERROR_ILLEGAL_ADDRESS",
        "CUDA_ERROR_MISALIGNED_ADDRESS",
        "CUDA_ERROR_ILLEGAL_INSTRUCTION",
        "CUDA_ERROR_INVALID_ADDRESS_SPACE",
        "CUDA_ERROR_INVALID_PC",
        "CUDA_ERROR_HARDWARE_STACK_ERROR",
        "CUDA_ERROR_ASSERT",
        "CUDA_ERROR_LAUNCH_FAILED",
        "CUDA_ERROR_LAUNCH_TIMEOUT",
        "CUDA_ERROR_TENSOR_MEMORY_LEAK",
        "CUDA_ERROR_CONTRACTED",
    };
    for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++)
        if (strcmp(name, faults[i]) == 0)
            return 1;
    return 0;
}

/* "CUDA_ERROR_X: text (call)" -> "CUDA_ERROR_X" into name ("" if msg is not of that
 * form). */
static void cuda_error_name(const char *msg, char *name, size_t n)
{
    name[0] = '\0';
    if (strncmp(msg, "CUDA_ERROR_", 11) != 0)
        return;
    size_t len = strcspn(msg, ": \n");
    if (len < n) {
        memcpy(name, msg, len);
        name[len] = '\0';
    }
}

/* Sends an error and DONE with its status. A CUDA fault of the kernel is GL_ERR_FAULT. */
static void send_error(gl_worker_chan *ch, gl_status st, const gl_error *e)
{
    char name[64];
    cuda_error_name(e->msg, name, sizeof name);
    if (st == GL_ERR_CUDA && name[0] && gl_worker_is_kernel_fault(name))
        st = GL_ERR_FAULT;
    gl_worker_send(ch, GL_WORKER_MSG_ERROR, (uint32_t)st, e->msg, strlen(e->msg));
    gl_worker_send(ch, GL_WORKER_MSG_DONE, (uint32_t)st, NULL, 0);
}

/* GPU traces (instrument.h): one launch of the instrumented kernel from the initial
 * buffers; sends TRACE (arg 0 with the buffer, or 1 with why it failed). slots hold the
 * device pointers of the result run. Returns 1 when the launch failed (the context may
 * be unusable), else 0. */
static int trace_run(gl_worker_chan *ch, gpu_t *g, const gl_worker_job *job, uint64_t *slots,
                     void **params)
{
    const gl_spec *spec = job->spec;
    gl_error e = {0};
    uint64_t nblocks = (uint64_t)spec->grid[0] * spec->grid[1] * spec->grid[2];
    unsigned wpb = (spec->block[0] * spec->block[1] * spec->block[2] + 31) / 32;
    uint64_t records = job->trace_records ? job->trace_records : GL_ITRACE_DEFAULT_RECORDS;
    size_t bytes = gl_instrument_trace_bytes(nblocks, wpb, records);
    void *host = calloc(1, bytes);
    void **tparams = calloc((size_t)spec->nargs + 2, sizeof *tparams);
    uint64_t tptr = 0;
    char *out = NULL;
    gl_status st = GL_OK;
    int launched_bad = 0;
    if (!host || !tparams) {
        st = gl_fail(&e, GL_ERR_NOMEM, "out of memory for a %zu-byte GPU trace buffer", bytes);
        goto done;
    }
    gl_instrument_trace_init(host, nblocks, wpb, records);
    if ((st = gpu_load_ptx(g, job->trace_ptx, &e)) != GL_OK)
        goto done;
    for (int i = 0; i < spec->nargs && st == GL_OK; i++) {
        tparams[i] = params[i];
        if (spec->args[i].is_ptr)
            st = gpu_htod(g, slots[i], job->buffers[i].data, job->buffers[i].bytes, &e);
    }
    if (st != GL_OK || (st = gpu_malloc(g, bytes, &tptr, &e)) != GL_OK ||
        (st = gpu_htod(g, tptr, host, bytes, &e)) != GL_OK)
        goto done;
    tparams[spec->nargs] = &tptr;
    gl_worker_send(ch, GL_WORKER_MSG_PHASE, GL_WORKER_PHASE_KERNEL, NULL, 0);
    gpu_set_cluster(g, spec->cluster);
    st = gpu_launch(g, job->kernel, spec->grid, spec->block, spec->dynamic_shared_bytes, tparams,
                    &out, NULL, &e);
    gl_worker_send(ch, GL_WORKER_MSG_PHASE, GL_WORKER_PHASE_HOST, NULL, 0);
    launched_bad = st != GL_OK;
    if (st == GL_OK)
        st = gpu_dtoh(g, host, tptr, bytes, &e);
done:
    if (st == GL_OK) {
        /* only the records written: the header's counter says how many */
        uint64_t count, roff;
        memcpy(&count, host, 8);
        memcpy(&roff, (unsigned char *)host + 16, 8);
        uint64_t used = roff + (count < records ? count : records) * GL_ITRACE_RECORD_BYTES;
        gl_worker_send(ch, GL_WORKER_MSG_TRACE, 0, host, used < bytes ? (size_t)used : bytes);
    } else
        gl_worker_send(ch, GL_WORKER_MSG_TRACE, 1, e.msg, strlen(e.msg));
    free(out);
    free(host);
    free(tparams);
    return launched_bad;
}

/* The records of INFO and LIBRARY (runtime/wire.h). */
static void put_info(gl_wire_out *w, const void *d)
{
    gl_wire_put_device_info(w, d);
}

static void put_library(gl_wire_out *w, const void *l)
{
    gl_wire_put_library(w, l);
}

/* The real job: runs in the child only. */
static void gpu_body(gl_worker_chan *ch, const gl_worker_job *job)
{
    gl_error e = {0};
    gpu_t *g = NULL;
    const gl_spec *spec = job->spec;
    uint64_t *slots = NULL;
    void **params = NULL;
    void *scratch = NULL;
    size_t biggest = 0;
    gl_status st = gpu_open(&g, &e);
    if (st != GL_OK) {
        send_error(ch, st, &e);
        return;
    }
    gl_worker_send(ch, GL_WORKER_MSG_PHASE, GL_WORKER_PHASE_OPENED, NULL, 0);
    if (job->info_only || job->want_info) {
        gl_device_info info;
        if ((st = gpu_device_info(g, &info, &e)) != GL_OK)
            goto fail;
        gl_wire_send(ch->fd, GL_WORKER_MSG_INFO, 0, put_info, &info);
        if (job->info_only) {
            gl_worker_send(ch, GL_WORKER_MSG_DONE, GL_OK, NULL, 0);
            gpu_close(g);
            return;
        }
    }
    int n = spec->nargs;
    slots = calloc((size_t)n + 1, sizeof *slots);
    params = calloc((size_t)n + 1, sizeof *params);
    if (!slots || !params) {
        st = gl_fail(&e, GL_ERR_NOMEM, "out of memory in the GPU worker");
        goto fail;
    }
    if ((st = gpu_load_ptx(g, job->ptx, &e)) != GL_OK)
        goto fail;
    for (int i = 0; i < n; i++) {
        slots[i] = job->slots[i];
        params[i] = &slots[i];
        if (!spec->args[i].is_ptr)
            continue;
        const gl_buffer *b = &job->buffers[i];
        if ((st = gpu_malloc(g, b->bytes, &slots[i], &e)) != GL_OK ||
            (st = gpu_htod(g, slots[i], b->data, b->bytes, &e)) != GL_OK)
            goto fail;
        if (b->bytes > biggest)
            biggest = b->bytes;
    }
    { /* buffer addresses: slots hold the scalars' bytes too, so zero those */
        uint64_t *dp = calloc((size_t)n + 1, sizeof *dp);
        if (dp && n > 0) {
            for (int i = 0; i < n; i++)
                dp[i] = spec->args[i].is_ptr ? slots[i] : 0;
            gl_worker_send(ch, GL_WORKER_MSG_DPTR, 0, dp, (size_t)n * sizeof *dp);
        }
        free(dp);
    }

    char *out = NULL;
    double ms = 0;
    gl_worker_send(ch, GL_WORKER_MSG_PHASE, GL_WORKER_PHASE_KERNEL, NULL, 0);
    gpu_set_cluster(g, spec->cluster);
    st = gpu_launch(g, job->kernel, spec->grid, spec->block, spec->dynamic_shared_bytes, params,
                    &out, &ms, &e);
    gl_worker_send(ch, GL_WORKER_MSG_PHASE, GL_WORKER_PHASE_HOST, NULL, 0);
    if (out && *out)
        gl_worker_send(ch, GL_WORKER_MSG_STDOUT, 0, out, strlen(out));
    free(out);
    if (st != GL_OK)
        goto fail;
    gl_worker_send(ch, GL_WORKER_MSG_ELAPSED, 0, &ms, sizeof ms);
    {
        int occ[5];
        gl_error oe = {0};
        if (gpu_occupancy(g, job->kernel, spec->block, spec->dynamic_shared_bytes, occ, &oe) ==
            GL_OK)
            gl_worker_send(ch, GL_WORKER_MSG_OCCUPANCY, 0, occ, sizeof occ);
    }

    /* Copy back through one scratch buffer, so job->buffers keep the initial values the
     * timed runs start from. */
    if (biggest && !(scratch = malloc(biggest))) {
        st = gl_fail(&e, GL_ERR_NOMEM, "out of memory in the GPU worker");
        goto fail;
    }
    for (int i = 0; i < n; i++) {
        if (!spec->args[i].is_ptr)
            continue;
        size_t bytes = job->buffers[i].bytes;
        if ((st = gpu_dtoh(g, scratch, slots[i], bytes, &e)) != GL_OK)
            goto fail;
        gl_worker_send(ch, GL_WORKER_MSG_BUFFER, (uint32_t)i, scratch, bytes);
    }

    if (job->reps > 0) {
        int total = job->warmup + job->reps;
        double *times = calloc((size_t)job->reps, sizeof *times);
        if (!times) {
            st = gl_fail(&e, GL_ERR_NOMEM, "out of memory in the GPU worker");
            goto fail;
        }
        /* Device printf of the repetitions is dropped (fd 1 to /dev/null). */
        fflush(stdout);
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) {
            dup2(devnull, 1);
            close(devnull);
        }
        for (int r = 0; r < total && st == GL_OK; r++) {
            for (int i = 0; i < n && st == GL_OK; i++)
                if (spec->args[i].is_ptr)
                    st = gpu_htod(g, slots[i], job->buffers[i].data, job->buffers[i].bytes, &e);
            if (st != GL_OK)
                break;
            gl_worker_send(ch, GL_WORKER_MSG_PHASE, GL_WORKER_PHASE_KERNEL, NULL, 0);
            st = gpu_time_launch(g, job->kernel, spec->grid, spec->block,
                                 spec->dynamic_shared_bytes, params, &ms, &e);
            gl_worker_send(ch, GL_WORKER_MSG_PHASE, GL_WORKER_PHASE_HOST, NULL, 0);
            if (r >= job->warmup)
                times[r - job->warmup] = ms;
        }
        if (st == GL_OK)
            gl_worker_send(ch, GL_WORKER_MSG_TIMES, 0, times, (size_t)job->reps * sizeof *times);
        free(times);
        if (st != GL_OK)
            goto fail;
    }
    if (spec->ref_sgemm[0] > 0 || (spec->ref_cub && job->cub_so)) {
        gl_library_run lib;
        gl_worker_send(ch, GL_WORKER_MSG_PHASE, GL_WORKER_PHASE_KERNEL, NULL, 0);
        if (spec->ref_sgemm[0] > 0)
            gl_cublas_sgemm(g, spec->ref_sgemm, spec->ref_gemm_f16, &lib);
        else
            gl_cub_run(g, job->cub_so, spec->ref_cub, spec->ref_cub_n, &lib);
        gl_worker_send(ch, GL_WORKER_MSG_PHASE, GL_WORKER_PHASE_HOST, NULL, 0);
        gl_wire_send(ch->fd, GL_WORKER_MSG_LIBRARY, 0, put_library, &lib);
    }
    int broken = job->trace_ptx ? trace_run(ch, g, job, slots, params) : 0;
    gl_worker_send(ch, GL_WORKER_MSG_DONE, GL_OK, NULL, 0);
    free(scratch);
    free(slots);
    free(params);
    if (!broken) /* after a faulting instrumented run, as after a fault below */
        gpu_close(g);
    return;
fail:
    send_error(ch, st, &e);
    free(scratch);
    free(slots);
    free(params);
    /* After a kernel fault the context is unusable; the process is about to exit and the
     * driver frees everything with it, so skip gpu_close's calls into a broken context. */
    if (st != GL_ERR_FAULT)
        gpu_close(g);
}

/* ------------------------------------------------------------------ parent side */

/* What gl_worker_run hands its child. */
typedef struct worker_args {
    const gl_worker_job *job;
} worker_args;

/* The worker process (a gl_child body). */
static void worker_child(int fd, void *arg)
{
    const worker_args *a = arg;
    gl_worker_chan ch = {fd};
    (body_override ? body_override : gpu_body)(&ch, a->job);
}

/* The largest message the parent takes: a trace buffer may be 16 GiB. */
#define WORKER_MSG_MAX ((uint64_t)16 << 30)

gl_status gl_worker_run(const gl_worker_job *job, gl_worker_result *res, gl_error *err)
{
    memset(res, 0, sizeof *res);
    double limit = job->timeout_s > 0 ? job->timeout_s : GL_TIMEOUT_DEFAULT_S;
    worker_args wa = {job};
    gl_child child;
    const int started = gl_child_spawn(&child, NULL, worker_child, &wa);
    if (started != 0)
        return gl_fail(err, GL_ERR_CUDA, "cannot start the GPU worker: %s: %s",
                       started == GL_CHILD_ERR_PIPE ? "pipe" : "fork", strerror(errno));
    const int fd = child.fd;

    gl_status st = GL_OK, done_status = GL_OK;
    int done = 0, killed = 0, phase = GL_WORKER_PHASE_HOST;
    char errmsg[sizeof err->msg] = "";
    gl_status err_status = GL_OK;
    double deadline = gl_child_now() + GL_WORKER_SETUP_LIMIT_S;
    while (!done) {
        gl_msg_header h;
        gl_msg_rc r = gl_child_recv_header(fd, &h, WORKER_MSG_MAX, deadline);
        if (r == GL_MSG_TIMEOUT) {
            gl_child_kill(&child);
            killed = 1;
            if (phase == GL_WORKER_PHASE_KERNEL) {
                res->fault = GL_WORKER_TIMEOUT;
                st = gl_fail(err, GL_ERR_FAULT, "the kernel ran longer than %g s and was stopped",
                             limit);
            } else {
                res->fault = GL_WORKER_DIED;
                st = gl_fail(err, GL_ERR_CUDA,
                             "the GPU worker did not answer for %g s (driver start, PTX load "
                             "or copies) and was stopped",
                             GL_WORKER_SETUP_LIMIT_S);
            }
            break;
        }
        const int too_big = r == GL_MSG_TOO_BIG; /* refused below as not understood */
        if (r != GL_MSG_OK && !too_big)
            break; /* EOF or error: judged below from the exit status */
        int bad = 0;
        switch (too_big ? 0 : h.type) {
        case GL_WORKER_MSG_PHASE:
            if (h.arg == GL_WORKER_PHASE_OPENED)
                res->opened = 1;
            phase = h.arg == GL_WORKER_PHASE_KERNEL ? GL_WORKER_PHASE_KERNEL : GL_WORKER_PHASE_HOST;
            deadline = gl_child_now() +
                       (phase == GL_WORKER_PHASE_KERNEL ? limit : GL_WORKER_SETUP_LIMIT_S);
            bad = h.len != 0;
            break;
        case GL_WORKER_MSG_BUFFER: {
            const gl_spec *spec = job->spec;
            if (!spec || h.arg >= (uint32_t)spec->nargs || !spec->args[h.arg].is_ptr ||
                h.len != job->buffers[h.arg].bytes) {
                bad = 1;
                break;
            }
            r = gl_child_recv_payload(fd, job->buffers[h.arg].data, h.len, deadline);
            res->buffers_back++;
            break;
        }
        case GL_WORKER_MSG_STDOUT: {
            if (h.len > (64u << 20)) {
                bad = 1;
                break;
            }
            char *text = malloc(h.len + 1);
            if (!text) {
                r = gl_child_recv_payload(fd, NULL, h.len, deadline);
                break;
            }
            r = gl_child_recv_payload(fd, text, h.len, deadline);
            text[r == GL_MSG_OK ? h.len : 0] = '\0';
            free(res->stdout_text);
            res->stdout_text = text;
            break;
        }
        case GL_WORKER_MSG_TIMES: {
            if (h.len % sizeof(double) || h.len > sizeof(double) * 1000000 || h.len == 0) {
                bad = 1;
                break;
            }
            double *t = malloc(h.len);
            if (!t) {
                r = gl_child_recv_payload(fd, NULL, h.len, deadline);
                break;
            }
            r = gl_child_recv_payload(fd, t, h.len, deadline);
            free(res->times_ms);
            res->times_ms = t;
            res->ntimes = r == GL_MSG_OK ? (int)(h.len / sizeof(double)) : 0;
            break;
        }
        case GL_WORKER_MSG_INFO: {
            char p[sizeof res->info];
            if (h.len != sizeof p) {
                bad = 1;
                break;
            }
            r = gl_child_recv_payload(fd, p, sizeof p, deadline);
            gl_wire_in in = gl_wire_in_of(p, sizeof p);
            res->have_info = r == GL_MSG_OK && gl_wire_get_device_info(&in, &res->info) == 0;
            break;
        }
        case GL_WORKER_MSG_ERROR: {
            size_t keep = h.len < sizeof errmsg - 1 ? h.len : sizeof errmsg - 1;
            r = gl_child_recv_payload(fd, errmsg, keep, deadline);
            errmsg[r == GL_MSG_OK ? keep : 0] = '\0';
            if (r == GL_MSG_OK && h.len > keep)
                r = gl_child_recv_payload(fd, NULL, h.len - keep, deadline);
            err_status = (gl_status)h.arg;
            break;
        }
        case GL_WORKER_MSG_ELAPSED:
            if (h.len != sizeof res->elapsed_ms) {
                bad = 1;
                break;
            }
            r = gl_child_recv_payload(fd, &res->elapsed_ms, h.len, deadline);
            break;
        case GL_WORKER_MSG_OCCUPANCY:
            if (h.len != sizeof res->occupancy) {
                bad = 1;
                break;
            }
            r = gl_child_recv_payload(fd, res->occupancy, h.len, deadline);
            break;
        case GL_WORKER_MSG_TRACE: {
            if (h.arg == 1) {
                size_t keep =
                    h.len < sizeof res->trace_error - 1 ? h.len : sizeof res->trace_error - 1;
                r = gl_child_recv_payload(fd, res->trace_error, keep, deadline);
                res->trace_error[r == GL_MSG_OK ? keep : 0] = '\0';
                if (r == GL_MSG_OK && h.len > keep)
                    r = gl_child_recv_payload(fd, NULL, h.len - keep, deadline);
                break;
            }
            if (h.arg != 0 || h.len > ((uint64_t)16 << 30)) {
                bad = 1;
                break;
            }
            void *tb = malloc(h.len ? h.len : 1);
            if (!tb) {
                r = gl_child_recv_payload(fd, NULL, h.len, deadline);
                snprintf(res->trace_error, sizeof res->trace_error,
                         "out of memory for the GPU trace (%llu bytes)", (unsigned long long)h.len);
                break;
            }
            r = gl_child_recv_payload(fd, tb, h.len, deadline);
            free(res->trace_buf);
            res->trace_buf = r == GL_MSG_OK ? tb : NULL;
            res->trace_bytes = r == GL_MSG_OK ? h.len : 0;
            if (r != GL_MSG_OK)
                free(tb);
            break;
        }
        case GL_WORKER_MSG_DPTR: { /* buffer addresses */
            const gl_spec *spec = job->spec;
            if (!spec || h.arg != 0 || spec->nargs <= 0 ||
                h.len != (uint64_t)spec->nargs * sizeof(uint64_t)) {
                bad = 1;
                break;
            }
            uint64_t *dp = malloc(h.len);
            if (!dp) {
                r = gl_child_recv_payload(fd, NULL, h.len, deadline);
                break;
            }
            r = gl_child_recv_payload(fd, dp, h.len, deadline);
            free(res->dptr);
            res->dptr = r == GL_MSG_OK ? dp : NULL;
            res->ndptr = r == GL_MSG_OK ? spec->nargs : 0;
            if (r != GL_MSG_OK)
                free(dp);
            break;
        }
        case GL_WORKER_MSG_LIBRARY: {
            char p[sizeof res->library];
            if (h.len != sizeof p) {
                bad = 1;
                break;
            }
            r = gl_child_recv_payload(fd, p, sizeof p, deadline);
            gl_wire_in in = gl_wire_in_of(p, sizeof p);
            if (r == GL_MSG_OK)
                gl_wire_get_library(&in, &res->library);
            break;
        }
        case GL_WORKER_MSG_DONE:
            done = 1;
            done_status = (gl_status)h.arg;
            bad = h.len != 0;
            break;
        default: bad = 1; break;
        }
        if (bad) {
            gl_child_kill(&child);
            killed = 1;
            res->fault = GL_WORKER_DIED;
            st = gl_fail(err, GL_ERR_CUDA,
                         "the GPU worker sent a message gpulearn does not understand (type "
                         "%u, %llu bytes) and was stopped",
                         h.type, (unsigned long long)h.len);
            break;
        }
        if (r == GL_MSG_TIMEOUT) {
            gl_child_kill(&child);
            killed = 1;
            res->fault = GL_WORKER_DIED;
            st = gl_fail(err, GL_ERR_CUDA, "the GPU worker stopped sending its results");
            break;
        }
        if (r != GL_MSG_OK)
            break;
    }
    gl_child_close(&child);

    gl_child_exit ex;
    int reaped = killed ? gl_child_stop(&child, 10.0, &ex)
                        : gl_child_wait(&child, gl_child_now() + 5.0, &ex);
    if (reaped == 0 && !killed) /* finished talking but will not exit: stop it */
        reaped = gl_child_stop(&child, 10.0, &ex);
    reaped = reaped == 1;
    if (st != GL_OK)
        return st;
    if (!done) {
        res->fault = GL_WORKER_DIED;
        if (reaped && ex.signal)
            return gl_fail(err, GL_ERR_CUDA, "the GPU worker died (signal %d, %s)", ex.signal,
                           strsignal(ex.signal));
        if (reaped && ex.exited && ex.code != 0)
            return gl_fail(err, GL_ERR_CUDA, "the GPU worker exited with status %d", ex.code);
        return gl_fail(err, GL_ERR_CUDA, "the GPU worker stopped before it finished");
    }
    if (done_status != GL_OK) {
        cuda_error_name(errmsg, res->cuda_error, sizeof res->cuda_error);
        if (done_status == GL_ERR_FAULT)
            res->fault = GL_WORKER_CUDA_FAULT;
        if (!errmsg[0])
            snprintf(errmsg, sizeof errmsg, "the GPU worker failed (status %d)", (int)done_status);
        (void)err_status;
        return gl_fail(err, done_status, "%s", errmsg);
    }
    return GL_OK;
}

/* ------------------------------------------------------------------ timing */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Quantile q of sorted v[n] with linear interpolation (the "type 7" definition, as
 * numpy's default). */
static double quantile(const double *v, int n, double q)
{
    double pos = q * (n - 1);
    int lo = (int)pos;
    if (lo >= n - 1)
        return v[n - 1];
    return v[lo] + (pos - lo) * (v[lo + 1] - v[lo]);
}

void gl_worker_time_stats_of(double *ms, int n, gl_time_stats *out)
{
    memset(out, 0, sizeof *out);
    if (n <= 0)
        return;
    qsort(ms, (size_t)n, sizeof *ms, cmp_double);
    out->n = n;
    out->min_ms = ms[0];
    out->max_ms = ms[n - 1];
    out->median_ms = quantile(ms, n, 0.5);
    out->q1_ms = quantile(ms, n, 0.25);
    out->q3_ms = quantile(ms, n, 0.75);
}
