/* job.c — launches and gradings in a worker process (design in job.h). */
#include "tui/job.h"

#include "trace/analysis.h"
#include "trace/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

double job_now(void)
{
    return gl_child_now();
}

/* --------------------------------------------------------------- the wire */

/* The child sends one message (runtime/child.h), JOB_MSG_RESULT, whose payload is: a
 * fixed header, then length-prefixed blobs. Everything is read back by the same
 * executable, so structs travel as bytes. */
enum { JOB_MSG_RESULT = 1 };

/* The most bytes a result may announce (64 GiB: buffers and a trace). */
#define JOB_MSG_MAX ((uint64_t)64 << 30)

/* Where the payload goes: fd < 0 only counts its bytes (the message header needs its
 * length before it is written). */
typedef struct wbuf {
    int fd;
    bool ok;
    uint64_t n; /* bytes written (or counted) */
} wbuf;

static void w_bytes(wbuf *w, const void *p, size_t n)
{
    if (w->ok && w->fd >= 0 && n > 0 && gl_write_all(w->fd, p, n) != 0)
        w->ok = false;
    w->n += n;
}

static void w_u64(wbuf *w, uint64_t v)
{
    w_bytes(w, &v, sizeof v);
}

/* A blob: length then bytes; NULL is length UINT64_MAX. */
static void w_blob(wbuf *w, const void *p, size_t n)
{
    if (!p) {
        w_u64(w, UINT64_MAX);
        return;
    }
    w_u64(w, n);
    w_bytes(w, p, n);
}

static void w_str(wbuf *w, const char *s)
{
    w_blob(w, s, s ? strlen(s) : 0);
}

typedef struct rbuf {
    const char *p, *end;
    bool ok;
} rbuf;

static void r_bytes(rbuf *r, void *dst, size_t n)
{
    if (!r->ok || (size_t)(r->end - r->p) < n) {
        r->ok = false;
        memset(dst, 0, n);
        return;
    }
    memcpy(dst, r->p, n);
    r->p += n;
}

static uint64_t r_u64(rbuf *r)
{
    uint64_t v;
    r_bytes(r, &v, sizeof v);
    return v;
}

/* A blob as a malloc'd, NUL-terminated copy (NULL for a NULL blob or on error). */
static char *r_blob(rbuf *r, size_t *len)
{
    uint64_t n = r_u64(r);
    if (len)
        *len = 0;
    if (!r->ok || n == UINT64_MAX)
        return NULL;
    if (n > (uint64_t)(r->end - r->p)) {
        r->ok = false;
        return NULL;
    }
    char *s = malloc((size_t)n + 1);
    if (!s) {
        r->ok = false;
        return NULL;
    }
    memcpy(s, r->p, (size_t)n);
    s[n] = '\0';
    r->p += n;
    if (len)
        *len = (size_t)n;
    return s;
}

/* ----------------------------------------------------------- the worker */

/* Reads back (at most 64 KiB of) what the child's tools wrote to stdout/stderr. */
static char *read_capture(FILE *f)
{
    fflush(stdout);
    fflush(stderr);
    if (!f)
        return NULL;
    long len = (fseek(f, 0, SEEK_END) == 0) ? ftell(f) : -1;
    if (len <= 0 || fseek(f, 0, SEEK_SET) != 0)
        return NULL;
    if (len > 65536)
        len = 65536;
    char *text = malloc((size_t)len + 1);
    if (!text)
        return NULL;
    size_t got = fread(text, 1, (size_t)len, f);
    text[got] = '\0';
    return text;
}

/* In the child: stdin from /dev/null, stdout and stderr into a temporary file (a
 * compiler's chatter must not scribble on the screen), which it returns (NULL if none
 * could be made). */
static FILE *capture_output(void)
{
    FILE *capture = tmpfile();
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0)
        dup2(devnull, STDIN_FILENO), close(devnull);
    if (capture) {
        dup2(fileno(capture), STDOUT_FILENO);
        dup2(fileno(capture), STDERR_FILENO);
    }
    return capture;
}

/* Common start: the worker (runtime/child: its own process group, so that Ctrl-C in
 * the terminal goes to the TUI only; killed if the TUI dies) running body(fd, arg).
 * false with msg set when it could not be started. */
static bool spawn(job *j, job_kind kind, void (*body)(int fd, void *arg), void *arg, char *msg,
                  size_t msg_len)
{
    memset(j, 0, sizeof *j);
    const int rc = gl_child_spawn(&j->child, NULL, body, arg);
    if (rc != 0) {
        snprintf(msg, msg_len, "cannot start a worker: %s: %s",
                 rc == GL_CHILD_ERR_PIPE ? "pipe" : "fork", strerror(errno));
        return false;
    }
    j->kind = kind;
    j->started = job_now();
    return true;
}

/* gl_run_result travels field by field: every pointer's contents are sent; the fault,
 * the findings and the diagnostics are plain records (runtime/result.h, file names
 * included) and travel as bytes. Fields added to the struct later are left zero in the
 * parent (safe) until listed here. */
static void write_result(wbuf *w, const gl_run_result *r)
{
    w_bytes(w, &r->backend, sizeof r->backend);
    w_bytes(w, r->note, sizeof r->note);
    w_bytes(w, &r->compiler, sizeof r->compiler);
    w_u64(w, (uint64_t)(r->buffers ? r->nargs : 0));
    for (int i = 0; r->buffers && i < r->nargs; i++)
        w_blob(w, r->buffers[i].data, r->buffers[i].bytes);
    w_str(w, r->stdout_text);
    w_bytes(w, &r->fault, sizeof r->fault);
    w_bytes(w, &r->stats, sizeof r->stats);
    w_bytes(w, &r->elapsed_ms, sizeof r->elapsed_ms);
    w_bytes(w, &r->occupancy, sizeof r->occupancy);
    w_bytes(w, &r->peaks, sizeof r->peaks);
    w_str(w, r->ptx);
    w_bytes(w, &r->cached, sizeof r->cached);
    w_bytes(w, r->compile_command, sizeof r->compile_command);
    w_blob(w, r->diags, (size_t)r->ndiags * sizeof *r->diags);
    w_bytes(w, &r->timing, sizeof r->timing);
    /* checker findings */
    w_u64(w, (uint64_t)(r->findings ? r->nfindings : 0));
    for (int i = 0; r->findings && i < r->nfindings; i++)
        w_bytes(w, &r->findings[i], sizeof r->findings[i]);
    w_bytes(w, &r->findings_dropped, sizeof r->findings_dropped);
    w_bytes(w, &r->nerrors, sizeof r->nerrors);
    w_bytes(w, &r->nwarnings, sizeof r->nwarnings);
    /* the trace (views), when one was asked for */
    const trace_t *t = r->trace;
    w_u64(w, t ? 1 : 0);
    if (t) {
        w_bytes(w, &t->level, sizeof t->level);
        w_bytes(w, t->kernel, sizeof t->kernel);
        w_bytes(w, t->grid, sizeof t->grid);
        w_bytes(w, t->block, sizeof t->block);
        w_bytes(w, &t->nwarps_per_block, sizeof t->nwarps_per_block);
        w_blob(w, t->insns, (size_t)t->ninsns * sizeof *t->insns);
        w_blob(w, t->regs, (size_t)t->nregs * sizeof *t->regs);
        w_blob(w, t->vars, (size_t)t->nvars * sizeof *t->vars);
        w_u64(w, (uint64_t)t->nfiles);
        for (int i = 0; i < t->nfiles; i++)
            w_str(w, t->files ? t->files[i] : NULL);
        w_blob(w, t->events, t->nevents * sizeof *t->events);
        w_bytes(w, &t->truncated, sizeof t->truncated);
        w_bytes(w, &t->dropped, sizeof t->dropped);
        w_blob(w, t->addrs, t->naddrs * 32 * sizeof *t->addrs);
        w_blob(w, t->text, t->ntext);
        w_blob(w, t->snaps, t->nsnaps * sizeof *t->snaps);
        w_blob(w, t->snap_bytes, t->nsnap_bytes);
        w_bytes(w, &t->snaps_truncated, sizeof t->snaps_truncated);
    }
    /* metrics */
    const gl_metrics *m = r->metrics;
    w_u64(w, m ? 1 : 0);
    if (m) {
        w_bytes(w, m->kernel, sizeof m->kernel);
        w_bytes(w, &m->total, sizeof m->total);
        w_blob(w, m->lines, (size_t)m->nlines * sizeof *m->lines);
        w_bytes(w, m->top_atomics, sizeof m->top_atomics);
        w_bytes(w, &m->ntop_atomics, sizeof m->ntop_atomics);
        w_bytes(w, &m->natomic_addresses, sizeof m->natomic_addresses);
        w_bytes(w, &m->level, sizeof m->level);
        w_bytes(w, &m->incomplete, sizeof m->incomplete);
    }
    /* buffer addresses: nargs device addresses (an empty blob when none) */
    w_blob(w, r->buffers ? r->dptr : NULL, r->dptr ? (size_t)r->nargs * sizeof *r->dptr : 0);
}

/* Reads a blob of n elements of `size` bytes into *out (malloc'd, NULL when empty). */
static bool r_array(rbuf *r, void **out, size_t *n, size_t size)
{
    size_t len = 0;
    char *b = r_blob(r, &len);
    *out = NULL;
    *n = 0;
    if (!r->ok)
        return false;
    if (!b)
        return true;
    if (size == 0 || len % size != 0) {
        free(b);
        r->ok = false;
        return false;
    }
    *out = b;
    *n = len / size;
    return true;
}

/* Reads the compiler's diagnostics written as one blob of gl_diag records; NULL with
 * *n 0 for none. */
static gl_diag *r_diags(rbuf *r, int *n)
{
    void *p;
    size_t count;
    *n = 0;
    if (!r_array(r, &p, &count, sizeof(gl_diag)) || count > 100000) {
        free(p);
        r->ok = false;
        return NULL;
    }
    gl_diag *d = p;
    for (size_t i = 0; i < count; i++) {
        d[i].file[sizeof d[i].file - 1] = '\0';
        d[i].text[sizeof d[i].text - 1] = '\0';
    }
    *n = (int)count;
    return d;
}

/* Reads a buffer array as written by the child: a count (under 4096), then each
 * buffer's bytes as a blob. NULL with *count 0 for none; a bad count or no memory clears
 * r->ok (the buffers read so far stay with the caller, who frees them). */
static gl_buffer *r_buffers(rbuf *r, int *count)
{
    *count = 0;
    const uint64_t nargs = r_u64(r);
    if (!r->ok || nargs == 0)
        return NULL;
    gl_buffer *b = nargs < 4096 ? calloc((size_t)nargs, sizeof *b) : NULL;
    if (!b) {
        r->ok = false;
        return NULL;
    }
    *count = (int)nargs;
    for (int i = 0; r->ok && i < *count; i++) {
        size_t n;
        b[i].data = r_blob(r, &n);
        b[i].bytes = n;
    }
    return b;
}

/* The parent's side of write_result; *res is zeroed first, partial results are freed
 * on error (false). */
static bool read_result(rbuf *r, gl_run_result *res)
{
    memset(res, 0, sizeof *res);
    r_bytes(r, &res->backend, sizeof res->backend);
    r_bytes(r, res->note, sizeof res->note);
    res->note[sizeof res->note - 1] = '\0';
    r_bytes(r, &res->compiler, sizeof res->compiler);
    res->buffers = r_buffers(r, &res->nargs);
    res->stdout_text = r_blob(r, NULL);
    r_bytes(r, &res->fault, sizeof res->fault);
    res->fault.src_file[sizeof res->fault.src_file - 1] = '\0';
    res->fault.message[sizeof res->fault.message - 1] = '\0';
    res->fault.alloc_name[sizeof res->fault.alloc_name - 1] = '\0';
    res->fault.cuda_error[sizeof res->fault.cuda_error - 1] = '\0';
    r_bytes(r, &res->stats, sizeof res->stats);
    r_bytes(r, &res->elapsed_ms, sizeof res->elapsed_ms);
    r_bytes(r, &res->occupancy, sizeof res->occupancy);
    res->occupancy.limiter[sizeof res->occupancy.limiter - 1] = '\0';
    res->occupancy.regs_why[sizeof res->occupancy.regs_why - 1] = '\0';
    r_bytes(r, &res->peaks, sizeof res->peaks);
    res->peaks.device[sizeof res->peaks.device - 1] = '\0';
    res->ptx = r_blob(r, NULL);
    r_bytes(r, &res->cached, sizeof res->cached);
    r_bytes(r, res->compile_command, sizeof res->compile_command);
    res->compile_command[sizeof res->compile_command - 1] = '\0';
    res->diags = r_diags(r, &res->ndiags);
    r_bytes(r, &res->timing, sizeof res->timing);
    uint64_t nf = r_u64(r);
    if (r->ok && nf > 0 && nf < 100000) {
        res->findings = calloc((size_t)nf, sizeof *res->findings);
        if (!res->findings)
            r->ok = false;
        else
            res->nfindings = (int)nf;
        for (int i = 0; r->ok && i < res->nfindings; i++) {
            gl_finding *f = &res->findings[i];
            r_bytes(r, f, sizeof *f);
            f->message[sizeof f->message - 1] = f->var[sizeof f->var - 1] = '\0';
            f->access.src_file[GL_FILE_MAX - 1] = f->other.src_file[GL_FILE_MAX - 1] = '\0';
        }
    } else if (nf != 0) {
        r->ok = false;
    }
    r_bytes(r, &res->findings_dropped, sizeof res->findings_dropped);
    r_bytes(r, &res->nerrors, sizeof res->nerrors);
    r_bytes(r, &res->nwarnings, sizeof res->nwarnings);
    if (r_u64(r) == 1 && r->ok) {
        trace_level level;
        r_bytes(r, &level, sizeof level);
        trace_t *t = trace_new(level, 0);
        if (!t)
            r->ok = false;
        res->trace = t;
        if (t) {
            r_bytes(r, t->kernel, sizeof t->kernel);
            t->kernel[sizeof t->kernel - 1] = '\0';
            r_bytes(r, t->grid, sizeof t->grid);
            r_bytes(r, t->block, sizeof t->block);
            r_bytes(r, &t->nwarps_per_block, sizeof t->nwarps_per_block);
            size_t n;
            void *p;
            if (r_array(r, &p, &n, sizeof *t->insns))
                t->insns = p, t->ninsns = (int)n;
            if (r_array(r, &p, &n, sizeof *t->regs))
                t->regs = p, t->nregs = (int)n;
            if (r_array(r, &p, &n, sizeof *t->vars))
                t->vars = p, t->nvars = (int)n;
            uint64_t nfiles = r_u64(r);
            if (r->ok && nfiles < 4096) {
                t->files = nfiles ? calloc((size_t)nfiles, sizeof *t->files) : NULL;
                if (nfiles && !t->files)
                    r->ok = false;
                else
                    t->nfiles = (int)nfiles;
                for (int i = 0; r->ok && i < t->nfiles; i++)
                    t->files[i] = r_blob(r, NULL);
            } else {
                r->ok = false;
            }
            if (r_array(r, &p, &n, sizeof *t->events))
                t->events = p, t->nevents = t->cap_events = n;
            r_bytes(r, &t->truncated, sizeof t->truncated);
            r_bytes(r, &t->dropped, sizeof t->dropped);
            if (r_array(r, &p, &n, 32 * sizeof *t->addrs))
                t->addrs = p, t->naddrs = t->cap_addrs = n;
            if (r_array(r, &p, &n, 1))
                t->text = p, t->ntext = t->cap_text = n;
            if (r_array(r, &p, &n, sizeof *t->snaps))
                t->snaps = p, t->nsnaps = t->cap_snaps = n;
            if (r_array(r, &p, &n, 1))
                t->snap_bytes = p, t->nsnap_bytes = t->cap_snap_bytes = n;
            r_bytes(r, &t->snaps_truncated, sizeof t->snaps_truncated);
        }
    }
    if (r->ok && r_u64(r) == 1 && r->ok) {
        gl_metrics *m = calloc(1, sizeof *m);
        if (!m)
            r->ok = false;
        res->metrics = m;
        if (m) {
            r_bytes(r, m->kernel, sizeof m->kernel);
            m->kernel[sizeof m->kernel - 1] = '\0';
            r_bytes(r, &m->total, sizeof m->total);
            size_t n;
            void *p;
            if (r_array(r, &p, &n, sizeof *m->lines))
                m->lines = p, m->nlines = (int)n;
            r_bytes(r, m->top_atomics, sizeof m->top_atomics);
            r_bytes(r, &m->ntop_atomics, sizeof m->ntop_atomics);
            r_bytes(r, &m->natomic_addresses, sizeof m->natomic_addresses);
            r_bytes(r, &m->level, sizeof m->level);
            r_bytes(r, &m->incomplete, sizeof m->incomplete);
        }
    }
    if (r->ok) { /* buffer addresses */
        size_t n;
        void *p;
        if (r_array(r, &p, &n, sizeof *res->dptr)) {
            if (n == (size_t)res->nargs && n > 0)
                res->dptr = p;
            else
                free(p);
        }
    }
    if (!r->ok) {
        gl_run_result_free_trace(res); /* not (yet) freed by gl_run_result_free */
        gl_run_result_free(res);
        return false;
    }
    return true;
}

/* What a worker sends back: the status and message, then a run's result and the
 * chatter (and an exercise's part), or a grading's report. */
typedef struct job_out {
    gl_status st;
    const char *msg;
    const gl_run_result *res; /* run, exercise */
    const char *chatter;
    const job_exercise *ex;     /* exercise */
    const gl_grade_report *rep; /* grading */
} job_out;

static void put_out(wbuf *w, const job_out *o)
{
    w_u64(w, (uint64_t)o->st);
    w_str(w, o->msg);
    if (o->rep) {
        const gl_grade_report *rep = o->rep;
        w_bytes(w, rep, sizeof *rep);
        w_str(w, rep->compile_log);
        w_blob(w, rep->diags, (size_t)rep->ndiags * sizeof *rep->diags);
        w_blob(w, rep->checks, rep->checks ? (size_t)rep->nchecks * sizeof *rep->checks : 0);
        return;
    }
    write_result(w, o->res);
    w_str(w, o->chatter);
    const job_exercise *ex = o->ex;
    if (!ex)
        return;
    w_bytes(w, &ex->n, sizeof ex->n);
    w_bytes(w, &ex->nsizes, sizeof ex->nsizes);
    w_bytes(w, ex->sizes, sizeof ex->sizes);
    w_bytes(w, ex->secs, sizeof ex->secs);
    w_bytes(w, &ex->ref_status, sizeof ex->ref_status);
    w_bytes(w, ex->ref_error, sizeof ex->ref_error);
    w_u64(w, (uint64_t)(ex->ref_buffers ? ex->ref_nargs : 0));
    for (int i = 0; ex->ref_buffers && i < ex->ref_nargs; i++)
        w_blob(w, ex->ref_buffers[i].data, ex->ref_buffers[i].bytes);
}

/* Sends *o as the JOB_MSG_RESULT message and exits the worker: a first pass counts the
 * payload's bytes, the second writes them (a trace of tens of MB is never copied). */
static void send_out(int fd, const job_out *o)
{
    wbuf count = {-1, true, 0};
    put_out(&count, o);
    wbuf w = {fd, gl_msg_send_header(fd, JOB_MSG_RESULT, 0, count.n) == 0, 0};
    put_out(&w, o);
    _exit(w.ok && w.n == count.n ? 0 : 3);
}

typedef struct run_args {
    const gl_spec *spec;
    const gl_run_opts *opts;
} run_args;

/* job_start_run's worker (a gl_child body). */
static void run_body(int fd, void *arg)
{
    const run_args *a = arg;
    FILE *capture = capture_output();
    gl_run_result res;
    gl_error err = {0};
    gl_status st = gl_run_spec(a->spec, a->opts, &res, &err);
    char *chatter = read_capture(capture);
    send_out(fd, &(job_out){.st = st, .msg = err.msg, .res = &res, .chatter = chatter});
}

bool job_start_run(job *j, const gl_spec *spec, const gl_run_opts *opts, char *msg, size_t msg_len)
{
    run_args a = {spec, opts};
    return spawn(j, JOB_RUN, run_body, &a, msg, msg_len);
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* The exercise's reference at size n with the lesson's inputs: its buffers into ex (on
 * the simulator; ptx: already compiled, else compiled here). *secs (may be NULL) gets
 * the run's wall time, compiling excluded. */
static gl_status exercise_ref_run(const gl_lesson *l, int64_t n, const char *ptx,
                                  const gl_run_opts *opts, job_exercise *ex, double *secs)
{
    gl_spec spec;
    gl_error err = {0};
    gl_status st = lesson_exercise_spec(l, n, 0, l->exercise->reference, &spec, &err);
    if (st == GL_OK) {
        gl_run_result res;
        double t0 = job_now();
        st = ptx ? gl_run_ptx(&spec, ptx, opts, &res, &err) : gl_run_spec(&spec, opts, &res, &err);
        if (secs)
            *secs = job_now() - t0;
        if (st == GL_OK && res.buffers) {
            spec_buffers_free(ex->ref_buffers, ex->ref_nargs);
            ex->ref_buffers = res.buffers;
            ex->ref_nargs = res.nargs;
            res.buffers = NULL;
            res.nargs = 0;
        }
        gl_run_result_free_trace(&res);
        gl_run_result_free(&res);
        spec_free(&spec);
    }
    ex->ref_status = st;
    if (st != GL_OK)
        snprintf(ex->ref_error, sizeof ex->ref_error, "%.2000s", err.msg);
    return st;
}

/* Chooses ex->n: the reference timed at each graded size, smallest first (see
 * job_start_exercise). */
static void exercise_choose_size(const gl_lesson *l, const gl_run_opts *opts, job_exercise *ex)
{
    ex->nsizes = grade_sizes(l->exercise, ex->sizes, JOB_MAX_SIZES);
    qsort(ex->sizes, (size_t)ex->nsizes, sizeof ex->sizes[0], cmp_i64);
    for (int i = 0; i < ex->nsizes; i++)
        ex->secs[i] = -1;
    ex->n = ex->nsizes > 0 ? ex->sizes[0] : 1000;
    gl_compiled c = {0};
    gl_error err = {0};
    ex->ref_status = gl_compile_cuda(l->exercise->reference, &opts->compile, &c, &err);
    if (ex->ref_status != GL_OK) {
        snprintf(ex->ref_error, sizeof ex->ref_error, "%.2000s", err.msg);
        return;
    }
    gl_run_opts o = *opts;
    o.backend = GL_BACKEND_SIM;
    o.timeout_s = 2 * JOB_SIZE_SECONDS; /* a slower size is not chosen: no need to finish it */
    job_exercise scratch = {0};
    for (int i = 0; i < ex->nsizes; i++) {
        /* the smallest size's output is kept whatever its time: it is the fallback */
        job_exercise *into = i == 0 ? ex : &scratch;
        /* a failure at a larger size (stopped at the time limit: too slow) is not
         * chosen; at the smallest, the reference fails: ex says why */
        if (exercise_ref_run(l, ex->sizes[i], c.ptx, &o, into, &ex->secs[i]) != GL_OK)
            break;
        if (ex->secs[i] >= JOB_SIZE_SECONDS)
            break;
        if (i > 0) { /* the largest size within the limit so far: its output is the reference's */
            spec_buffers_free(ex->ref_buffers, ex->ref_nargs);
            ex->ref_buffers = scratch.ref_buffers;
            ex->ref_nargs = scratch.ref_nargs;
            scratch.ref_buffers = NULL;
            scratch.ref_nargs = 0;
        }
        ex->n = ex->sizes[i];
    }
    spec_buffers_free(scratch.ref_buffers, scratch.ref_nargs);
    gl_compiled_free(&c);
}

typedef struct exercise_args {
    const gl_lesson *l;
    const char *source;
    int64_t n;
    const gl_run_opts *opts;
} exercise_args;

/* job_start_exercise's worker (a gl_child body). */
static void exercise_body(int fd, void *arg)
{
    const exercise_args *a = arg;
    const gl_lesson *l = a->l;
    const gl_run_opts *opts = a->opts;
    FILE *capture = capture_output();
    job_exercise ex;
    memset(&ex, 0, sizeof ex);
    ex.n = a->n;
    if (a->n <= 0)
        exercise_choose_size(l, opts, &ex);
    gl_run_result res;
    memset(&res, 0, sizeof res);
    gl_error err = {0};
    gl_spec spec;
    gl_status st = lesson_exercise_spec(l, ex.n, 0, a->source, &spec, &err);
    if (st == GL_OK) {
        st = gl_run_spec(&spec, opts, &res, &err);
        spec_free(&spec);
    }
    if (!ex.ref_buffers && ex.ref_status == GL_OK) {
        /* the grader's limits for the reference: the exercise's step limit */
        gl_run_opts ro = {
            .backend = GL_BACKEND_SIM, .compile = opts->compile, .step_limit = opts->step_limit};
        exercise_ref_run(l, ex.n, NULL, &ro, &ex, NULL);
    }
    char *chatter = read_capture(capture);
    send_out(fd, &(job_out){.st = st, .msg = err.msg, .res = &res, .chatter = chatter, .ex = &ex});
}

bool job_start_exercise(job *j, const gl_lesson *l, const char *source, int64_t n,
                        const gl_run_opts *opts, char *msg, size_t msg_len)
{
    exercise_args a = {l, source, n, opts};
    return spawn(j, JOB_EXERCISE, exercise_body, &a, msg, msg_len);
}

typedef struct grade_args {
    const gl_lesson *l;
    const char *submission;
    const gl_grade_opts *opts;
} grade_args;

/* job_start_grade's worker (a gl_child body). */
static void grade_body(int fd, void *arg)
{
    const grade_args *a = arg;
    capture_output();
    gl_grade_report rep;
    memset(&rep, 0, sizeof rep);
    gl_error err = {0};
    gl_status st = grade_exercise(a->l, a->submission, a->opts, &rep, &err);
    send_out(fd, &(job_out){.st = st, .msg = err.msg, .rep = &rep});
}

bool job_start_grade(job *j, const gl_lesson *l, const char *submission, const gl_grade_opts *opts,
                     char *msg, size_t msg_len)
{
    grade_args a = {l, submission, opts};
    return spawn(j, JOB_GRADE, grade_body, &a, msg, msg_len);
}

/* ------------------------------------------------------------ the parent */

int job_fd(const job *j)
{
    return j->kind != JOB_NONE && !j->eof ? j->child.fd : -1;
}

bool job_poll(job *j)
{
    if (j->kind == JOB_NONE)
        return false;
    /* Read for up to 50 ms per call while bytes keep coming: the child refills the pipe
     * as fast as we read (a run's trace is tens of MB), and the UI loop calls only every
     * 80 ms. Nothing there yet: return at once. */
    const double until = job_now() + 0.05;
    while (!j->eof) {
        size_t before = j->in.got;
        gl_msg_rc r =
            gl_msg_recv(j->child.fd, &j->in, JOB_MSG_MAX, before ? job_now() + 0.005 : job_now());
        if (r != GL_MSG_TIMEOUT)
            j->eof = true; /* whole, or the child closed or broke the pipe */
        else if (j->in.got == before || job_now() >= until)
            break;
    }
    return j->eof;
}

/* Closes the pipe, reaps the child (killing its process group first if kill_it);
 * returns how it ended. */
static gl_child_exit job_reap(job *j, bool kill_it)
{
    gl_child_exit ex;
    if (kill_it)
        gl_child_stop(&j->child, GL_CHILD_FOREVER, &ex);
    else {
        gl_child_close(&j->child);
        gl_child_wait(&j->child, GL_CHILD_FOREVER, &ex);
    }
    gl_msg_in_free(&j->in);
    memset(j, 0, sizeof *j);
    j->child.fd = -1;
    return ex;
}

void job_cancel(job *j)
{
    if (j->kind == JOB_NONE)
        return;
    job_reap(j, true);
}

static void how_it_died(gl_child_exit ex, char *msg, size_t len, const char *what)
{
    if (ex.signal)
        snprintf(msg, len, "the %s's worker process died (signal %d, %s) before it answered", what,
                 ex.signal, strsignal(ex.signal));
    else
        snprintf(msg, len, "the %s's worker process ended (status %d) before it answered", what,
                 ex.exited ? ex.code : -1);
}

/* The result message's payload to read from; r->ok false when it did not all come. */
static rbuf result_of(const job *j)
{
    const bool whole = j->in.done && j->in.data && j->in.h.type == JOB_MSG_RESULT;
    return whole ? (rbuf){j->in.data, j->in.data + j->in.h.len, true} : (rbuf){NULL, NULL, false};
}

/* Reads the exercise part job_start_exercise writes after the run; false on a short or
 * bad message (ex is then left empty). */
static bool read_exercise(rbuf *r, job_exercise *ex)
{
    r_bytes(r, &ex->n, sizeof ex->n);
    r_bytes(r, &ex->nsizes, sizeof ex->nsizes);
    r_bytes(r, ex->sizes, sizeof ex->sizes);
    r_bytes(r, ex->secs, sizeof ex->secs);
    r_bytes(r, &ex->ref_status, sizeof ex->ref_status);
    r_bytes(r, ex->ref_error, sizeof ex->ref_error);
    ex->ref_error[sizeof ex->ref_error - 1] = '\0';
    if (ex->nsizes < 0 || ex->nsizes > JOB_MAX_SIZES)
        r->ok = false;
    ex->ref_buffers = r_buffers(r, &ex->ref_nargs);
    if (!r->ok) {
        spec_buffers_free(ex->ref_buffers, ex->ref_nargs);
        memset(ex, 0, sizeof *ex);
    }
    return r->ok;
}

/* job_finish_run and job_finish_exercise: the run, then (ex not NULL) the exercise
 * part. */
static void finish_run(job *j, gl_status *st, gl_run_result *res, char *errmsg, size_t errlen,
                       char **chatter, job_exercise *ex)
{
    memset(res, 0, sizeof *res);
    *chatter = NULL;
    errmsg[0] = '\0';
    if (ex)
        memset(ex, 0, sizeof *ex);
    rbuf r = result_of(j);
    *st = (gl_status)r_u64(&r);
    char *msg = r_blob(&r, NULL);
    bool ok = r.ok && read_result(&r, res);
    if (ok)
        *chatter = r_blob(&r, NULL);
    if (ok && ex && !read_exercise(&r, ex)) {
        ok = false;
        free(*chatter);
        *chatter = NULL;
        gl_run_result_free_trace(res);
        gl_run_result_free(res);
    }
    if (ok) {
        snprintf(errmsg, errlen, "%s", msg ? msg : "");
        job_reap(j, false);
    } else {
        memset(res, 0, sizeof *res);
        *st = GL_ERR_TOOL;
        how_it_died(job_reap(j, false), errmsg, errlen, "run");
    }
    if (!res->stdout_text)
        res->stdout_text = strdup("");
    if (ex && !ok) {
        ex->ref_status = GL_ERR_TOOL;
        snprintf(ex->ref_error, sizeof ex->ref_error, "%s", errmsg);
    }
    free(msg);
}

void job_finish_run(job *j, gl_status *st, gl_run_result *res, char *errmsg, size_t errlen,
                    char **chatter)
{
    finish_run(j, st, res, errmsg, errlen, chatter, NULL);
}

void job_finish_exercise(job *j, gl_status *st, gl_run_result *res, char *errmsg, size_t errlen,
                         char **chatter, job_exercise *ex)
{
    finish_run(j, st, res, errmsg, errlen, chatter, ex);
}

void job_finish_grade(job *j, gl_status *st, gl_grade_report *rep, char *errmsg, size_t errlen)
{
    memset(rep, 0, sizeof *rep);
    errmsg[0] = '\0';
    rbuf r = result_of(j);
    *st = (gl_status)r_u64(&r);
    char *msg = r_blob(&r, NULL);
    gl_grade_report got;
    r_bytes(&r, &got, sizeof got);
    if (r.ok) {
        got.compile_log = r_blob(&r, NULL);
        got.diags = r_diags(&r, &got.ndiags);
        size_t n = 0;
        got.checks = (gl_check_result *)(void *)r_blob(&r, &n);
        if (n != (size_t)got.nchecks * sizeof *got.checks)
            r.ok = false;
        if (!r.ok)
            free(got.compile_log), free(got.diags), free(got.checks);
    }
    if (r.ok) {
        *rep = got;
        snprintf(errmsg, errlen, "%s", msg ? msg : "");
        job_reap(j, false);
    } else {
        *st = GL_ERR_TOOL;
        how_it_died(job_reap(j, false), errmsg, errlen, "grading");
    }
    free(msg);
}
