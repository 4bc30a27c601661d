/* wire.c — the one codec of what crosses a pipe whole (wire.h). */
#include "runtime/wire.h"

#include "runtime/child.h"
#include "runtime/gl.h"
#include "trace/analysis.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A NULL pointer's length on the wire. */
#define WIRE_NULL UINT64_MAX

/* Bounds on counts a message may announce (besides the bytes it holds). */
enum {
    WIRE_MAX_ARGS = 4096,     /* a launch's arguments */
    WIRE_MAX_FILES = 65536,   /* a trace's or metrics' source files */
    WIRE_MAX_RECORDS = 100000 /* diagnostics, findings, checks */
};

/* ------------------------------------------------------------------ writing */

gl_wire_out gl_wire_out_fd(int fd)
{
    return (gl_wire_out){.fd = fd, .ok = 1};
}

gl_wire_out gl_wire_out_mem(void)
{
    return (gl_wire_out){.fd = -1, .to_mem = 1, .ok = 1};
}

gl_wire_out gl_wire_out_count(void)
{
    return (gl_wire_out){.fd = -1, .ok = 1};
}

void gl_wire_put_bytes(gl_wire_out *w, const void *p, size_t n)
{
    if (w->ok && n > 0) {
        if (w->fd >= 0) {
            if (gl_write_all(w->fd, p, n) != 0)
                w->ok = 0;
        } else if (w->to_mem) {
            if (w->n + n > w->cap) {
                size_t cap = w->cap ? w->cap : 4096;
                while (cap < w->n + n)
                    cap *= 2;
                char *m = realloc(w->mem, cap);
                if (!m)
                    w->ok = 0;
                else
                    w->mem = m, w->cap = cap;
            }
            if (w->ok)
                memcpy(w->mem + w->n, p, n);
        }
    }
    w->n += n;
}

void gl_wire_put_u64(gl_wire_out *w, uint64_t v)
{
    gl_wire_put_bytes(w, &v, sizeof v);
}

void gl_wire_put_blob(gl_wire_out *w, const void *p, size_t n)
{
    if (!p) {
        gl_wire_put_u64(w, WIRE_NULL);
        return;
    }
    gl_wire_put_u64(w, n);
    gl_wire_put_bytes(w, p, n);
}

void gl_wire_put_str(gl_wire_out *w, const char *s)
{
    gl_wire_put_blob(w, s, s ? strlen(s) : 0);
}

/* ------------------------------------------------------------------ reading */

gl_wire_in gl_wire_in_of(const void *data, size_t len)
{
    const char *p = data;
    return (gl_wire_in){p, p ? p + len : p, p != NULL};
}

void gl_wire_get_bytes(gl_wire_in *in, void *dst, size_t n)
{
    if (!in->ok || (size_t)(in->end - in->p) < n) {
        in->ok = 0;
        memset(dst, 0, n);
        return;
    }
    memcpy(dst, in->p, n);
    in->p += n;
}

uint64_t gl_wire_get_u64(gl_wire_in *in)
{
    uint64_t v;
    gl_wire_get_bytes(in, &v, sizeof v);
    return v;
}

/* A blob's length: WIRE_NULL, or at most the bytes left (else in->ok 0). */
static uint64_t blob_len(gl_wire_in *in)
{
    const uint64_t n = gl_wire_get_u64(in);
    if (in->ok && n != WIRE_NULL && n > (uint64_t)(in->end - in->p))
        in->ok = 0;
    return in->ok ? n : WIRE_NULL;
}

char *gl_wire_get_str(gl_wire_in *in)
{
    const uint64_t n = blob_len(in);
    if (n == WIRE_NULL)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s) {
        in->ok = 0;
        return NULL;
    }
    memcpy(s, in->p, (size_t)n);
    s[n] = '\0';
    in->p += n;
    return s;
}

void gl_wire_get_chars(gl_wire_in *in, char *dst, size_t n)
{
    gl_wire_get_bytes(in, dst, n);
    if (n)
        dst[n - 1] = '\0';
}

int gl_wire_get_array(gl_wire_in *in, void **out, size_t *count, size_t size, size_t max)
{
    *out = NULL;
    *count = 0;
    const uint64_t n = blob_len(in);
    if (!in->ok)
        return -1;
    if (n == WIRE_NULL)
        return 0;
    if (size == 0 || n % size != 0 || n / size > max) {
        in->ok = 0;
        return -1;
    }
    void *p = malloc(n ? (size_t)n : 1); /* an empty array stays one, not NULL */
    if (!p) {
        in->ok = 0;
        return -1;
    }
    memcpy(p, in->p, (size_t)n);
    in->p += n;
    *out = p;
    *count = (size_t)(n / size);
    return 0;
}

/* A count put with gl_wire_put_u64: at most max, and at most one per `each` bytes left
 * (a count that cannot be true never reaches an allocation). */
static size_t get_count(gl_wire_in *in, uint64_t max, size_t each)
{
    const uint64_t n = gl_wire_get_u64(in);
    if (in->ok && (n > max || (each && n > (uint64_t)(in->end - in->p) / each)))
        in->ok = 0;
    return in->ok ? (size_t)n : 0;
}

/* ------------------------------------------------------------------ records */

/* The values of enums defined by X-lists (sim/kinds.h), and the others. */
static int fault_kind_ok(int k)
{
    switch (k) {
#define FAULT_CASE(n, v) case v:
        SIM_FAULT_LIST(FAULT_CASE)
#undef FAULT_CASE
    case GL_FAULT_GPU: return 1;
    default: return 0;
    }
}

static int finding_kind_ok(int k)
{
    switch (k) {
#define FIND_CASE(n, v) case v:
        SIM_FINDING_LIST(FIND_CASE)
#undef FIND_CASE
        return 1;
    default: return 0;
    }
}

static int hazard_ok(int k)
{
    switch (k) {
#define HAZ_CASE(n, v) case v:
        SIM_HAZARD_LIST(HAZ_CASE)
#undef HAZ_CASE
        return 1;
    default: return 0;
    }
}

static int space_ok(int k)
{
    switch (k) {
#define SPACE_CASE(n, v) case v:
        TRACE_SPACE_LIST(SPACE_CASE)
#undef SPACE_CASE
        return 1;
    default: return 0;
    }
}

static int status_ok(uint64_t s)
{
    return s <= GL_ERR_NOMEM;
}

/* A fixed-size string field cut at its last byte. */
#define CUT(field) ((field)[sizeof(field) - 1] = '\0')

static int fault_fix(gl_fault *f)
{
    CUT(f->src_file), CUT(f->message), CUT(f->alloc_name), CUT(f->cuda_error);
    return fault_kind_ok((int)f->kind) && space_ok((int)f->space);
}

static int finding_fix(gl_finding *f)
{
    CUT(f->message), CUT(f->var), CUT(f->access.src_file), CUT(f->other.src_file);
    return finding_kind_ok((int)f->kind) && hazard_ok((int)f->hazard) && space_ok((int)f->space);
}

static int diag_fix(gl_diag *d)
{
    CUT(d->file), CUT(d->text);
    return d->severity == GL_DIAG_ERROR || d->severity == GL_DIAG_WARNING ||
           d->severity == GL_DIAG_NOTE;
}

void gl_wire_put_status(gl_wire_out *w, gl_status st, const char *msg)
{
    gl_wire_put_u64(w, (uint64_t)st);
    gl_wire_put_str(w, msg);
}

int gl_wire_get_status(gl_wire_in *in, gl_status *st, char *msg, size_t len)
{
    const uint64_t s = gl_wire_get_u64(in);
    const uint64_t n = blob_len(in);
    if (in->ok && !status_ok(s))
        in->ok = 0;
    if (msg && len)
        snprintf(msg, len, "%.*s",
                 in->ok && n != WIRE_NULL ? (int)(n < INT32_MAX ? n : INT32_MAX) : 0,
                 in->ok ? in->p : "");
    if (in->ok && n != WIRE_NULL)
        in->p += n;
    *st = in->ok ? (gl_status)s : GL_ERR_TOOL;
    return in->ok ? 0 : -1;
}

void gl_wire_put_fault(gl_wire_out *w, const gl_fault *f)
{
    gl_wire_put_bytes(w, f, sizeof *f);
}

int gl_wire_get_fault(gl_wire_in *in, gl_fault *f)
{
    gl_wire_get_bytes(in, f, sizeof *f);
    if (!in->ok || !fault_fix(f)) {
        in->ok = 0;
        memset(f, 0, sizeof *f);
        return -1;
    }
    return 0;
}

void gl_wire_put_findings(gl_wire_out *w, const gl_finding *f, int n)
{
    gl_wire_put_blob(w, f, f ? (size_t)n * sizeof *f : 0);
}

int gl_wire_get_findings(gl_wire_in *in, gl_finding **f, int *n)
{
    void *p;
    size_t count;
    *f = NULL, *n = 0;
    if (gl_wire_get_array(in, &p, &count, sizeof **f, WIRE_MAX_RECORDS) != 0)
        return -1;
    gl_finding *ff = p;
    if (count == 0) { /* none arrive as NULL */
        free(p);
        return 0;
    }
    for (size_t i = 0; i < count; i++)
        if (!finding_fix(&ff[i])) {
            free(p);
            in->ok = 0;
            return -1;
        }
    *f = ff, *n = (int)count;
    return 0;
}

static void put_diags(gl_wire_out *w, const gl_diag *d, int n)
{
    gl_wire_put_blob(w, d, d ? (size_t)n * sizeof *d : 0);
}

/* Diagnostics into *d, *n; 0 or -1. */
static int get_diags(gl_wire_in *in, gl_diag **d, int *n)
{
    void *p;
    size_t count;
    *d = NULL, *n = 0;
    if (gl_wire_get_array(in, &p, &count, sizeof **d, WIRE_MAX_RECORDS) != 0)
        return -1;
    gl_diag *dd = p;
    for (size_t i = 0; i < count; i++)
        if (!diag_fix(&dd[i])) {
            free(p);
            in->ok = 0;
            return -1;
        }
    *d = dd, *n = (int)count;
    return 0;
}

/* ------------------------------------------------------------------ buffers */

void gl_wire_put_buffers(gl_wire_out *w, const gl_buffer *b, int n)
{
    gl_wire_put_u64(w, b ? (uint64_t)n : WIRE_NULL);
    for (int i = 0; b && i < n; i++) {
        gl_wire_put_u64(w, b[i].bytes);
        gl_wire_put_blob(w, b[i].data, b[i].data ? b[i].bytes : 0);
    }
}

int gl_wire_get_buffers(gl_wire_in *in, gl_buffer **out, int *count)
{
    *out = NULL, *count = 0;
    const uint64_t has = gl_wire_get_u64(in);
    if (!in->ok || has == WIRE_NULL)
        return in->ok ? 0 : -1;
    in->p -= sizeof has; /* read again as a bounded count */
    const size_t n = get_count(in, WIRE_MAX_ARGS, 16);
    if (!in->ok)
        return -1;
    if (n == 0) /* an empty array arrives as none */
        return 0;
    gl_buffer *b = calloc(n, sizeof *b);
    if (!b) {
        in->ok = 0;
        return -1;
    }
    for (size_t i = 0; in->ok && i < n; i++) {
        b[i].bytes = (size_t)gl_wire_get_u64(in);
        const uint64_t len = blob_len(in);
        if (!in->ok || len == WIRE_NULL)
            continue;
        if (len != b[i].bytes) {
            in->ok = 0;
            break;
        }
        in->p -= sizeof len; /* the blob again, as data */
        size_t got;
        gl_wire_get_array(in, &b[i].data, &got, 1, SIZE_MAX);
    }
    if (!in->ok) {
        spec_buffers_free(b, (int)n);
        return -1;
    }
    *out = b, *count = (int)n;
    return 0;
}

/* ------------------------------------------------------------------ traces */

void gl_wire_put_trace(gl_wire_out *w, const trace_t *t)
{
    gl_wire_put_u64(w, t ? 1 : 0);
    if (!t)
        return;
    gl_wire_put_u64(w, (uint64_t)t->level);
    gl_wire_put_bytes(w, t->kernel, sizeof t->kernel);
    gl_wire_put_bytes(w, t->grid, sizeof t->grid);
    gl_wire_put_bytes(w, t->block, sizeof t->block);
    gl_wire_put_u64(w, t->nwarps_per_block);
    gl_wire_put_blob(w, t->insns, (size_t)t->ninsns * sizeof *t->insns);
    gl_wire_put_u64(w, (uint64_t)t->nfiles);
    for (int i = 0; i < t->nfiles; i++)
        gl_wire_put_str(w, t->files ? t->files[i] : NULL);
    gl_wire_put_blob(w, t->regs, (size_t)t->nregs * sizeof *t->regs);
    gl_wire_put_u64(w, (uint64_t)t->record_regs);
    gl_wire_put_blob(w, t->vars, (size_t)t->nvars * sizeof *t->vars);
    gl_wire_put_blob(w, t->events, t->nevents * sizeof *t->events);
    gl_wire_put_u64(w, t->max_events);
    gl_wire_put_u64(w, (uint64_t)t->truncated);
    gl_wire_put_u64(w, t->dropped);
    gl_wire_put_blob(w, t->addrs, t->naddrs * 32 * sizeof *t->addrs);
    gl_wire_put_blob(w, t->text, t->ntext);
    gl_wire_put_u64(w, t->snap_max_bytes);
    gl_wire_put_blob(w, t->snaps, t->nsnaps * sizeof *t->snaps);
    gl_wire_put_blob(w, t->snap_bytes, t->nsnap_bytes);
    gl_wire_put_u64(w, (uint64_t)t->snaps_truncated);
}

/* Whether every index in t points inside t (see wire.h), and its strings end. */
static int trace_fix(trace_t *t)
{
    CUT(t->kernel);
    if (t->level != TRACE_OFF && t->level != TRACE_ISSUE && t->level != TRACE_MEMORY)
        return 0;
    const uint64_t nblocks = (uint64_t)t->grid[0] * t->grid[1] * t->grid[2];
    for (int i = 0; i < t->ninsns; i++) {
        trace_insn *k = &t->insns[i];
        CUT(k->mnemonic);
        if (k->src_file < 0 || (k->src_file > 0 && k->src_file >= t->nfiles))
            return 0;
    }
    for (int i = 0; i < t->nregs; i++)
        CUT(t->regs[i].name);
    for (int i = 0; i < t->nvars; i++) {
        CUT(t->vars[i].name);
        if (t->vars[i].reg < 0 || t->vars[i].reg >= t->nregs)
            return 0;
    }
    for (size_t i = 0; i < t->nsnaps; i++) {
        const trace_snapshot *s = &t->snaps[i];
        if (s->offset > t->nsnap_bytes || s->size > t->nsnap_bytes - s->offset ||
            s->block >= nblocks || s->pc < -1 || s->pc >= t->ninsns)
            return 0;
    }
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->kind < TRACE_EV_ISSUE || e->kind > TRACE_EV_VOTE || e->block >= nblocks ||
            e->warp >= t->nwarps_per_block || e->pc < -1 || e->pc >= t->ninsns)
            return 0;
        switch (e->kind) {
        case TRACE_EV_MEM:
        case TRACE_EV_REG:
        case TRACE_EV_SHFL:
            if (e->aux >= t->naddrs)
                return 0;
            if (e->kind == TRACE_EV_REG && e->barrier >= t->nregs)
                return 0;
            break;
        case TRACE_EV_BAR_RELEASE:
            if (e->aux != UINT32_MAX && e->aux >= t->nsnaps)
                return 0;
            break;
        case TRACE_EV_PRINTF:
            if (e->aux > t->ntext || e->barrier > t->ntext - e->aux)
                return 0;
            break;
        default: break;
        }
    }
    return 1;
}

int gl_wire_get_trace(gl_wire_in *in, trace_t **out)
{
    *out = NULL;
    const uint64_t has = gl_wire_get_u64(in);
    if (!in->ok || has > 1) {
        in->ok = 0;
        return -1;
    }
    if (!has)
        return 0;
    const uint64_t level = gl_wire_get_u64(in);
    trace_t *t = in->ok && level <= TRACE_MEMORY ? trace_new((trace_level)level, 0) : NULL;
    if (!t) {
        in->ok = 0;
        return -1;
    }
    gl_wire_get_chars(in, t->kernel, sizeof t->kernel);
    gl_wire_get_bytes(in, t->grid, sizeof t->grid);
    gl_wire_get_bytes(in, t->block, sizeof t->block);
    t->nwarps_per_block = (unsigned)gl_wire_get_u64(in);
    void *p;
    size_t n;
    if (gl_wire_get_array(in, &p, &n, sizeof *t->insns, INT32_MAX) == 0)
        t->insns = p, t->ninsns = (int)n;
    const size_t nfiles = get_count(in, WIRE_MAX_FILES, 8);
    if (in->ok && nfiles) {
        t->files = calloc(nfiles, sizeof *t->files);
        if (!t->files)
            in->ok = 0;
        for (size_t i = 0; in->ok && i < nfiles; i++) {
            t->files[i] = gl_wire_get_str(in);
            t->nfiles = (int)i + 1;
        }
    }
    if (gl_wire_get_array(in, &p, &n, sizeof *t->regs, INT32_MAX) == 0)
        t->regs = p, t->nregs = (int)n;
    t->record_regs = (int)gl_wire_get_u64(in);
    if (gl_wire_get_array(in, &p, &n, sizeof *t->vars, INT32_MAX) == 0)
        t->vars = p, t->nvars = (int)n;
    if (gl_wire_get_array(in, &p, &n, sizeof *t->events, SIZE_MAX) == 0)
        t->events = p, t->nevents = t->cap_events = n;
    t->max_events = (size_t)gl_wire_get_u64(in);
    t->truncated = (int)gl_wire_get_u64(in);
    t->dropped = gl_wire_get_u64(in);
    if (gl_wire_get_array(in, &p, &n, 32 * sizeof *t->addrs, SIZE_MAX) == 0)
        t->addrs = p, t->naddrs = t->cap_addrs = n;
    if (gl_wire_get_array(in, &p, &n, 1, SIZE_MAX) == 0)
        t->text = p, t->ntext = t->cap_text = n;
    t->snap_max_bytes = (size_t)gl_wire_get_u64(in);
    if (gl_wire_get_array(in, &p, &n, sizeof *t->snaps, SIZE_MAX) == 0)
        t->snaps = p, t->nsnaps = t->cap_snaps = n;
    if (gl_wire_get_array(in, &p, &n, 1, SIZE_MAX) == 0)
        t->snap_bytes = p, t->nsnap_bytes = t->cap_snap_bytes = n;
    t->snaps_truncated = (int)gl_wire_get_u64(in);
    if (!in->ok || !trace_fix(t)) {
        in->ok = 0;
        trace_free(t);
        return -1;
    }
    *out = t;
    return 0;
}

/* ------------------------------------------------------------------ metrics */

static void put_metrics(gl_wire_out *w, const gl_metrics *m)
{
    gl_wire_put_u64(w, m ? 1 : 0);
    if (!m)
        return;
    gl_wire_put_bytes(w, m->kernel, sizeof m->kernel);
    gl_wire_put_bytes(w, &m->total, sizeof m->total);
    gl_wire_put_blob(w, m->lines, (size_t)m->nlines * sizeof *m->lines);
    gl_wire_put_bytes(w, m->top_atomics, sizeof m->top_atomics);
    gl_wire_put_u64(w, (uint64_t)m->ntop_atomics);
    gl_wire_put_u64(w, m->natomic_addresses);
    gl_wire_put_u64(w, (uint64_t)m->level);
    gl_wire_put_u64(w, (uint64_t)m->incomplete);
    gl_wire_put_u64(w, (uint64_t)m->nfiles);
    for (int i = 0; i < m->nfiles; i++)
        gl_wire_put_str(w, m->files ? m->files[i] : NULL);
    gl_wire_put_u64(w, m->l2_bytes);
    gl_wire_put_u64(w, m->block_write_max);
}

static void metrics_drop(gl_metrics *m)
{
    if (m) {
        gl_metrics_free(m);
        free(m);
    }
}

static int get_metrics(gl_wire_in *in, gl_metrics **out)
{
    *out = NULL;
    const uint64_t has = gl_wire_get_u64(in);
    if (!in->ok || has > 1) {
        in->ok = 0;
        return -1;
    }
    if (!has)
        return 0;
    gl_metrics *m = calloc(1, sizeof *m);
    if (!m) {
        in->ok = 0;
        return -1;
    }
    gl_wire_get_chars(in, m->kernel, sizeof m->kernel);
    gl_wire_get_bytes(in, &m->total, sizeof m->total);
    void *p;
    size_t n;
    if (gl_wire_get_array(in, &p, &n, sizeof *m->lines, INT32_MAX) == 0)
        m->lines = p, m->nlines = (int)n;
    gl_wire_get_bytes(in, m->top_atomics, sizeof m->top_atomics);
    m->ntop_atomics = (int)get_count(in, GL_METRICS_TOP_ATOMICS, 0);
    m->natomic_addresses = gl_wire_get_u64(in);
    m->level = (int)gl_wire_get_u64(in);
    m->incomplete = (int)gl_wire_get_u64(in);
    const size_t nfiles = get_count(in, WIRE_MAX_FILES, 8);
    if (in->ok && nfiles) {
        m->files = calloc(nfiles, sizeof *m->files);
        if (!m->files)
            in->ok = 0;
        for (size_t i = 0; in->ok && i < nfiles; i++) {
            m->files[i] = gl_wire_get_str(in);
            m->nfiles = (int)i + 1;
        }
    }
    m->l2_bytes = gl_wire_get_u64(in);
    m->block_write_max = gl_wire_get_u64(in);
    for (int i = 0; in->ok && i < m->nlines; i++)
        if (m->lines[i].src_file < 0)
            in->ok = 0;
    if (!in->ok) {
        metrics_drop(m);
        return -1;
    }
    *out = m;
    return 0;
}

/* ------------------------------------------------------------------ a run */

void gl_wire_put_run(gl_wire_out *w, const gl_run_result *r)
{
    gl_wire_put_u64(w, (uint64_t)r->backend);
    gl_wire_put_bytes(w, r->note, sizeof r->note);
    gl_wire_put_u64(w, (uint64_t)r->compiler);
    gl_wire_put_buffers(w, r->buffers, r->nargs);
    gl_wire_put_u64(w, (uint64_t)r->nargs);
    gl_wire_put_str(w, r->stdout_text);
    gl_wire_put_fault(w, &r->fault);
    gl_wire_put_bytes(w, &r->stats, sizeof r->stats);
    gl_wire_put_u64(w, r->block_threads);
    gl_wire_put_bytes(w, &r->elapsed_ms, sizeof r->elapsed_ms);
    gl_wire_put_str(w, r->ptx);
    gl_wire_put_u64(w, (uint64_t)r->cached);
    gl_wire_put_bytes(w, r->compile_command, sizeof r->compile_command);
    gl_wire_put_str(w, r->compile_log);
    put_diags(w, r->diags, r->ndiags);
    gl_wire_put_bytes(w, &r->timing, sizeof r->timing);
    gl_wire_put_trace(w, r->trace);
    put_metrics(w, r->metrics);
    gl_wire_put_findings(w, r->findings, r->nfindings);
    gl_wire_put_u64(w, (uint64_t)r->findings_dropped);
    gl_wire_put_u64(w, (uint64_t)r->nerrors);
    gl_wire_put_u64(w, (uint64_t)r->nwarnings);
    gl_wire_put_blob(w, r->dptr, r->dptr ? (size_t)r->nargs * sizeof *r->dptr : 0);
    gl_wire_put_bytes(w, &r->occupancy, sizeof r->occupancy);
    gl_wire_put_bytes(w, &r->peaks, sizeof r->peaks);
}

int gl_wire_get_run(gl_wire_in *in, gl_run_result *r)
{
    memset(r, 0, sizeof *r);
    const uint64_t backend = gl_wire_get_u64(in);
    r->backend = (gl_backend_kind)backend;
    gl_wire_get_chars(in, r->note, sizeof r->note);
    const uint64_t compiler = gl_wire_get_u64(in);
    r->compiler = (gl_compiler)compiler;
    if (backend > GL_BACKEND_GPU || compiler > GL_CC_CLANG)
        in->ok = 0;
    int nbufs = 0;
    gl_wire_get_buffers(in, &r->buffers, &nbufs);
    const uint64_t nargs = gl_wire_get_u64(in);
    r->nargs = nbufs;
    if (nargs > WIRE_MAX_ARGS || (r->buffers && nargs != (uint64_t)nbufs))
        in->ok = 0;
    else if (!r->buffers)
        r->nargs = (int)nargs; /* no buffers (a run that never allocated) */
    r->stdout_text = gl_wire_get_str(in);
    gl_wire_get_fault(in, &r->fault);
    gl_wire_get_bytes(in, &r->stats, sizeof r->stats);
    const uint64_t block_threads = gl_wire_get_u64(in);
    if (block_threads > GL_SIM_THREADS_MAX)
        in->ok = 0;
    r->block_threads = (unsigned)block_threads;
    gl_wire_get_bytes(in, &r->elapsed_ms, sizeof r->elapsed_ms);
    r->ptx = gl_wire_get_str(in);
    r->cached = (int)gl_wire_get_u64(in);
    gl_wire_get_chars(in, r->compile_command, sizeof r->compile_command);
    r->compile_log = gl_wire_get_str(in);
    get_diags(in, &r->diags, &r->ndiags);
    gl_wire_get_bytes(in, &r->timing, sizeof r->timing);
    CUT(r->timing.device), CUT(r->timing.library.note);
    gl_wire_get_trace(in, &r->trace);
    get_metrics(in, &r->metrics);
    gl_wire_get_findings(in, &r->findings, &r->nfindings);
    r->findings_dropped = (int)gl_wire_get_u64(in);
    r->nerrors = (int)gl_wire_get_u64(in);
    r->nwarnings = (int)gl_wire_get_u64(in);
    void *p;
    size_t n;
    if (gl_wire_get_array(in, &p, &n, sizeof *r->dptr, WIRE_MAX_ARGS) == 0) {
        r->dptr = n ? p : NULL; /* none arrive as NULL */
        if (!n)
            free(p);
        else if (n != (size_t)r->nargs)
            in->ok = 0;
    }
    gl_wire_get_bytes(in, &r->occupancy, sizeof r->occupancy);
    CUT(r->occupancy.limiter), CUT(r->occupancy.regs_why);
    gl_wire_get_bytes(in, &r->peaks, sizeof r->peaks);
    CUT(r->peaks.device);
    if (!in->ok) {
        gl_run_result_free(r);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ a report */

void gl_wire_put_report(gl_wire_out *w, const gl_grade_report *r)
{
    gl_wire_put_bytes(w, r->lesson, sizeof r->lesson);
    gl_wire_put_bytes(w, r->submission, sizeof r->submission);
    gl_wire_put_bytes(w, r->backend, sizeof r->backend);
    gl_wire_put_u64(w, r->seed);
    gl_wire_put_u64(w, (uint64_t)r->sandboxed);
    gl_wire_put_u64(w, (uint64_t)r->passed);
    gl_wire_put_u64(w, (uint64_t)r->compiled);
    gl_wire_put_str(w, r->compile_log);
    put_diags(w, r->diags, r->ndiags);
    gl_wire_put_blob(w, r->checks, r->checks ? (size_t)r->nchecks * sizeof *r->checks : 0);
}

int gl_wire_get_report(gl_wire_in *in, gl_grade_report *r)
{
    memset(r, 0, sizeof *r);
    gl_wire_get_chars(in, r->lesson, sizeof r->lesson);
    gl_wire_get_chars(in, r->submission, sizeof r->submission);
    gl_wire_get_chars(in, r->backend, sizeof r->backend);
    r->seed = gl_wire_get_u64(in);
    r->sandboxed = (int)gl_wire_get_u64(in);
    r->passed = (int)gl_wire_get_u64(in);
    r->compiled = (int)gl_wire_get_u64(in);
    r->compile_log = gl_wire_get_str(in);
    get_diags(in, &r->diags, &r->ndiags);
    void *p;
    size_t n;
    if (gl_wire_get_array(in, &p, &n, sizeof *r->checks, WIRE_MAX_RECORDS) == 0)
        r->checks = p, r->nchecks = (int)n;
    for (int i = 0; i < r->nchecks; i++)
        CUT(r->checks[i].name), CUT(r->checks[i].detail);
    if (!in->ok) {
        grade_report_free(r);
        memset(r, 0, sizeof *r);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ an exercise run */

void gl_wire_put_exercise(gl_wire_out *w, const gl_exercise_result *x)
{
    gl_wire_put_u64(w, (uint64_t)x->n);
    gl_wire_put_u64(w, (uint64_t)x->nsizes);
    gl_wire_put_bytes(w, x->sizes, sizeof x->sizes);
    gl_wire_put_bytes(w, x->secs, sizeof x->secs);
    gl_wire_put_u64(w, (uint64_t)x->ref_status);
    gl_wire_put_bytes(w, x->ref_error, sizeof x->ref_error);
    gl_wire_put_buffers(w, x->ref_buffers, x->ref_nargs);
    gl_wire_put_bytes(w, &x->cmp, sizeof x->cmp);
}

int gl_wire_get_exercise(gl_wire_in *in, gl_exercise_result *x)
{
    memset(x, 0, sizeof *x);
    x->n = (int64_t)gl_wire_get_u64(in);
    const uint64_t nsizes = gl_wire_get_u64(in);
    x->nsizes = (int)nsizes;
    gl_wire_get_bytes(in, x->sizes, sizeof x->sizes);
    gl_wire_get_bytes(in, x->secs, sizeof x->secs);
    const uint64_t st = gl_wire_get_u64(in);
    x->ref_status = (gl_status)st;
    gl_wire_get_chars(in, x->ref_error, sizeof x->ref_error);
    gl_wire_get_buffers(in, &x->ref_buffers, &x->ref_nargs);
    gl_wire_get_bytes(in, &x->cmp, sizeof x->cmp);
    const gl_exercise_cmp *c = &x->cmp;
    if (nsizes > GL_EXERCISE_MAX_SIZES || !status_ok(st) ||
        (c->first_arg != -1 && (c->first_arg < 0 || c->first_arg >= x->ref_nargs)))
        in->ok = 0;
    if (!in->ok) {
        exercise_result_free(x);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ the GPU worker's records */

void gl_wire_put_device_info(gl_wire_out *w, const gl_device_info *d)
{
    gl_wire_put_bytes(w, d, sizeof *d);
}

int gl_wire_get_device_info(gl_wire_in *in, gl_device_info *d)
{
    gl_wire_get_bytes(in, d, sizeof *d);
    CUT(d->name), CUT(d->driver);
    if (!in->ok || in->p != in->end) {
        in->ok = 0;
        memset(d, 0, sizeof *d);
        return -1;
    }
    return 0;
}

void gl_wire_put_library(gl_wire_out *w, const gl_library_run *l)
{
    gl_wire_put_bytes(w, l, sizeof *l);
}

int gl_wire_get_library(gl_wire_in *in, gl_library_run *l)
{
    gl_wire_get_bytes(in, l, sizeof *l);
    CUT(l->note);
    if (!in->ok || in->p != in->end) {
        in->ok = 0;
        memset(l, 0, sizeof *l);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ messages */

int gl_wire_send(int fd, uint32_t type, uint32_t arg, gl_wire_put_fn put, const void *obj)
{
    gl_wire_out count = gl_wire_out_count();
    put(&count, obj);
    if (gl_child_send_header(fd, type, arg, count.n) != 0)
        return -1;
    gl_wire_out w = gl_wire_out_fd(fd);
    put(&w, obj);
    if (!w.ok)
        return -1;
    if (w.n != count.n) { /* obj changed between the passes: the message is broken */
        errno = EINVAL;
        return -1;
    }
    return 0;
}

char *gl_wire_encode(gl_wire_put_fn put, const void *obj, size_t *len)
{
    gl_wire_out w = gl_wire_out_mem();
    put(&w, obj);
    if (!w.ok) {
        free(w.mem);
        return NULL;
    }
    *len = (size_t)w.n;
    return w.mem ? w.mem : calloc(1, 1);
}
