/* test_wire.c — runtime/wire.h, the one codec of what crosses a pipe whole: every field
 * of a run's result (its trace and metrics), a grading's report and an exercise run
 * survives encoding and decoding (the structs are compared whole with their pointers
 * set aside, so a field added later and not sent fails here); a truncated, corrupted or
 * random message is refused, never read past its end (make check MODE=asan); a message
 * goes through a pipe (gl_wire_send); and runtime/exercise.h's run of lesson 1 compares
 * as the grader does, its real trace decoding to the same bytes. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/child.h"
#include "runtime/exercise.h"
#include "runtime/wire.h"
#include "trace/analysis.h"

/* ------------------------------------------------------------------ fixtures */

/* A fixed-size string field ended at its last byte, as every record's strings are. */
#define END(field) ((field)[sizeof(field) - 1] = '\0')

/* Fills n bytes with a pattern seeded by k (no byte of a record stays zero by chance). */
static void fill(void *p, size_t n, unsigned k)
{
    unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        b[i] = (unsigned char)(k * 31 + i * 7 + 1);
}

static void *dup_bytes(const void *p, size_t n)
{
    void *d = malloc(n ? n : 1);
    ck_assert_ptr_nonnull(d);
    memcpy(d, p, n);
    return d;
}

/* A trace whose every field is set and every index points inside it. */
static trace_t *make_trace(void)
{
    trace_t *t = trace_new(TRACE_MEMORY, 12345);
    ck_assert_ptr_nonnull(t);
    snprintf(t->kernel, sizeof t->kernel, "vec_add");
    t->grid[0] = 2, t->grid[1] = 3, t->grid[2] = 1;
    t->block[0] = 64, t->block[1] = 1, t->block[2] = 1;
    t->nwarps_per_block = 2;
    t->nfiles = 2;
    t->files = calloc(2, sizeof *t->files);
    t->files[0] = NULL; /* index 0: unused */
    t->files[1] = strdup("kernel.cu");
    t->ninsns = 3;
    t->insns = calloc(3, sizeof *t->insns);
    for (int i = 0; i < 3; i++) {
        fill(&t->insns[i], sizeof t->insns[i], (unsigned)i);
        t->insns[i].src_file = (int16_t)(i % 2);
        snprintf(t->insns[i].mnemonic, sizeof t->insns[i].mnemonic, "add.s32 %d", i);
        END(t->insns[i].mnemonic);
    }
    t->nregs = 2;
    t->regs = calloc(2, sizeof *t->regs);
    snprintf(t->regs[0].name, sizeof t->regs[0].name, "%%r1");
    snprintf(t->regs[1].name, sizeof t->regs[1].name, "%%f2");
    t->regs[1].size = 4;
    t->record_regs = 1;
    t->nvars = 1;
    t->vars = calloc(1, sizeof *t->vars);
    snprintf(t->vars[0].name, sizeof t->vars[0].name, "i");
    t->vars[0].reg = 1, t->vars[0].pc_hi = 3;
    t->ntext = t->cap_text = 6;
    t->text = dup_bytes("hello\n", 6);
    t->nsnap_bytes = t->cap_snap_bytes = 16;
    t->snap_bytes = calloc(1, 16);
    fill(t->snap_bytes, 16, 9);
    t->nsnaps = t->cap_snaps = 1;
    t->snaps = calloc(1, sizeof *t->snaps);
    t->snaps[0] = (trace_snapshot){.block = 5, .pc = 2, .time = 77, .offset = 4, .size = 12};
    t->snap_max_bytes = 1 << 20;
    t->naddrs = t->cap_addrs = 2;
    t->addrs = calloc(64, sizeof *t->addrs);
    fill(t->addrs, 64 * sizeof *t->addrs, 3);
    const trace_event ev[] = {
        {.kind = TRACE_EV_ISSUE, .warp = 1, .block = 5, .mask = 0xffffffff, .pc = 0, .time = 1},
        {.kind = TRACE_EV_MEM,
         .space = TRACE_SPACE_GLOBAL,
         .width = 4,
         .block = 1,
         .pc = 1,
         .aux = 0,
         .time = 2},
        {.kind = TRACE_EV_REG, .width = 4, .barrier = 1, .pc = 2, .aux = 1, .time = 3},
        {.kind = TRACE_EV_BAR_RELEASE, .pc = 2, .aux = 0, .time = 4},
        {.kind = TRACE_EV_BAR_RELEASE, .pc = -1, .aux = UINT32_MAX, .time = 5},
        {.kind = TRACE_EV_PRINTF, .pc = 1, .aux = 0, .barrier = 6, .time = 6},
        {.kind = TRACE_EV_VOTE, .pc = 2, .aux = 0xdeadbeef, .barrier = TRACE_VOTE_BALLOT},
    };
    t->nevents = t->cap_events = sizeof ev / sizeof ev[0];
    t->events = dup_bytes(ev, sizeof ev);
    t->truncated = 1, t->dropped = 99;
    t->snaps_truncated = 1;
    return t;
}

static gl_metrics *make_metrics(void)
{
    gl_metrics *m = calloc(1, sizeof *m);
    ck_assert_ptr_nonnull(m);
    snprintf(m->kernel, sizeof m->kernel, "vec_add");
    fill(&m->total, sizeof m->total, 4);
    m->nlines = 2;
    m->lines = calloc(2, sizeof *m->lines);
    fill(m->lines, 2 * sizeof *m->lines, 5);
    m->lines[0].src_file = 1, m->lines[1].src_file = 0;
    fill(m->top_atomics, sizeof m->top_atomics, 6);
    m->ntop_atomics = 3;
    m->natomic_addresses = 17;
    m->level = TRACE_MEMORY;
    m->incomplete = 1;
    m->nfiles = 2;
    m->files = calloc(2, sizeof *m->files);
    m->files[1] = strdup("kernel.cu");
    m->l2_bytes = 50u << 20;
    m->block_write_max = 4096;
    return m;
}

/* A run's result with every field set (a scalar's buffer without data, an empty one). */
static void make_run(gl_run_result *r)
{
    memset(r, 0, sizeof *r);
    r->backend = GL_BACKEND_SIM;
    snprintf(r->note, sizeof r->note, "GPU disabled by GPULEARN_NO_GPU");
    r->compiler = GL_CC_CLANG;
    r->nargs = 3;
    r->buffers = calloc(3, sizeof *r->buffers);
    r->buffers[0].bytes = 40;
    r->buffers[0].data = malloc(40);
    fill(r->buffers[0].data, 40, 1);
    r->buffers[1].bytes = 4; /* no data: a scalar, or a size without contents */
    r->buffers[2].data = malloc(1);
    r->stdout_text = strdup("printf\n");
    fill(&r->fault, sizeof r->fault, 2);
    r->fault.kind = GL_FAULT_OUT_OF_BOUNDS;
    r->fault.space = GL_SPACE_SHARED;
    snprintf(r->fault.src_file, sizeof r->fault.src_file, "kernel.cu");
    snprintf(r->fault.message, sizeof r->fault.message, "out-of-bounds store");
    snprintf(r->fault.alloc_name, sizeof r->fault.alloc_name, "c");
    END(r->fault.src_file), END(r->fault.message), END(r->fault.alloc_name);
    r->fault.cuda_error[0] = '\0';
    END(r->fault.cuda_error);
    r->stats = (gl_stats){123, 4567};
    r->elapsed_ms = 1.25;
    r->ptx = strdup(".version 8.0\n");
    r->cached = 1;
    snprintf(r->compile_command, sizeof r->compile_command, "clang -x cuda");
    r->compile_log = strdup("warning: unused\n");
    r->ndiags = 2;
    r->diags = calloc(2, sizeof *r->diags);
    for (int i = 0; i < 2; i++) {
        fill(&r->diags[i], sizeof r->diags[i], 7 + (unsigned)i);
        r->diags[i].severity = i ? GL_DIAG_NOTE : GL_DIAG_WARNING;
        snprintf(r->diags[i].file, sizeof r->diags[i].file, "kernel.cu");
        snprintf(r->diags[i].text, sizeof r->diags[i].text, "message %d", i);
        END(r->diags[i].file), END(r->diags[i].text);
    }
    fill(&r->timing, sizeof r->timing, 8);
    r->timing.device[sizeof r->timing.device - 1] = '\0';
    r->timing.library.note[sizeof r->timing.library.note - 1] = '\0';
    r->trace = make_trace();
    r->metrics = make_metrics();
    r->nfindings = 2;
    r->findings = calloc(2, sizeof *r->findings);
    for (int i = 0; i < 2; i++) {
        gl_finding *f = &r->findings[i];
        fill(f, sizeof *f, 10 + (unsigned)i);
        f->kind = i ? GL_FIND_RACE : GL_FIND_UNINIT_READ;
        f->space = GL_SPACE_GLOBAL;
        f->hazard = GL_HAZ_WAR;
        snprintf(f->message, sizeof f->message, "race %d", i);
        snprintf(f->var, sizeof f->var, "s[%d]", i);
        snprintf(f->access.src_file, sizeof f->access.src_file, "a.cu");
        snprintf(f->other.src_file, sizeof f->other.src_file, "b.cu");
        END(f->message), END(f->var), END(f->access.src_file), END(f->other.src_file);
    }
    r->findings_dropped = 3, r->nerrors = 4, r->nwarnings = 5;
    r->dptr = calloc(3, sizeof *r->dptr);
    r->dptr[0] = 0x7000000000000000ull, r->dptr[2] = 0x7000000000000100ull;
    fill(&r->occupancy, sizeof r->occupancy, 11);
    r->occupancy.limiter[sizeof r->occupancy.limiter - 1] = '\0';
    r->occupancy.regs_why[sizeof r->occupancy.regs_why - 1] = '\0';
    fill(&r->peaks, sizeof r->peaks, 12);
    r->peaks.device[sizeof r->peaks.device - 1] = '\0';
}

/* ------------------------------------------------------------------ comparisons */

static void same_blob(const void *a, const void *b, size_t n)
{
    ck_assert(!a == !b);
    if (a)
        ck_assert(memcmp(a, b, n) == 0);
}

/* A run's array that arrives as NULL when it has no element (wire.h). */
static void same_counted(const void *a, const void *b, size_t n)
{
    ck_assert(n == 0 ? b == NULL : a != NULL && b != NULL && memcmp(a, b, n) == 0);
}

static void same_str(const char *a, const char *b)
{
    ck_assert(!a == !b);
    if (a)
        ck_assert_str_eq(a, b);
}

static void same_trace(const trace_t *a, const trace_t *b)
{
    ck_assert(!a == !b);
    if (!a)
        return;
    trace_t x = *a, y = *b; /* every field but the pointers and capacities, byte for byte */
    for (trace_t *t = &x; t; t = t == &x ? &y : NULL) {
        t->insns = NULL, t->files = NULL, t->regs = NULL, t->vars = NULL, t->events = NULL;
        t->addrs = NULL, t->text = NULL, t->snaps = NULL, t->snap_bytes = NULL;
        t->sink = NULL, t->sink_ctx = NULL;
        t->cap_events = t->cap_addrs = t->cap_text = t->cap_snaps = t->cap_snap_bytes = 0;
    }
    ck_assert(memcmp(&x, &y, sizeof x) == 0);
    same_blob(a->insns, b->insns, (size_t)a->ninsns * sizeof *a->insns);
    for (int i = 0; i < a->nfiles; i++)
        same_str(a->files[i], b->files[i]);
    same_blob(a->regs, b->regs, (size_t)a->nregs * sizeof *a->regs);
    same_blob(a->vars, b->vars, (size_t)a->nvars * sizeof *a->vars);
    same_blob(a->events, b->events, a->nevents * sizeof *a->events);
    same_blob(a->addrs, b->addrs, a->naddrs * 32 * sizeof *a->addrs);
    same_blob(a->text, b->text, a->ntext);
    same_blob(a->snaps, b->snaps, a->nsnaps * sizeof *a->snaps);
    same_blob(a->snap_bytes, b->snap_bytes, a->nsnap_bytes);
}

static void same_metrics(const gl_metrics *a, const gl_metrics *b)
{
    ck_assert(!a == !b);
    if (!a)
        return;
    gl_metrics x = *a, y = *b;
    x.lines = y.lines = NULL, x.files = y.files = NULL, x.acc = y.acc = NULL;
    ck_assert(memcmp(&x, &y, sizeof x) == 0);
    same_blob(a->lines, b->lines, (size_t)a->nlines * sizeof *a->lines);
    for (int i = 0; i < a->nfiles; i++)
        same_str(a->files[i], b->files[i]);
}

static void same_buffers(const gl_buffer *a, const gl_buffer *b, int n)
{
    ck_assert(n == 0 || !a ? b == NULL : b != NULL);
    for (int i = 0; a && i < n; i++) {
        ck_assert_uint_eq(a[i].bytes, b[i].bytes);
        same_blob(a[i].data, b[i].data, a[i].bytes);
    }
}

static void same_run(const gl_run_result *a, const gl_run_result *b)
{
    gl_run_result x = *a, y = *b;
    for (gl_run_result *r = &x; r; r = r == &x ? &y : NULL) {
        r->buffers = NULL, r->stdout_text = NULL, r->ptx = NULL, r->compile_log = NULL;
        r->diags = NULL, r->trace = NULL, r->metrics = NULL, r->findings = NULL, r->dptr = NULL;
    }
    ck_assert(memcmp(&x, &y, sizeof x) == 0);
    same_buffers(a->buffers, b->buffers, a->nargs);
    same_str(a->stdout_text, b->stdout_text);
    same_str(a->ptx, b->ptx);
    same_str(a->compile_log, b->compile_log);
    same_blob(a->diags, b->diags, (size_t)a->ndiags * sizeof *a->diags);
    same_trace(a->trace, b->trace);
    same_metrics(a->metrics, b->metrics);
    same_counted(a->findings, b->findings, (size_t)a->nfindings * sizeof *a->findings);
    if (a->dptr)
        same_counted(a->dptr, b->dptr, (size_t)a->nargs * sizeof *a->dptr);
    else
        ck_assert_ptr_null(b->dptr);
}

/* ------------------------------------------------------------------ codec helpers */

static void put_run(gl_wire_out *w, const void *o)
{
    gl_wire_put_run(w, o);
}

static int get_run(const char *p, size_t n, gl_run_result *r)
{
    gl_wire_in in = gl_wire_in_of(p, n);
    return gl_wire_get_run(&in, r);
}

static char *encode_run(const gl_run_result *r, size_t *len)
{
    char *p = gl_wire_encode(put_run, r, len);
    ck_assert_ptr_nonnull(p);
    return p;
}

/* ------------------------------------------------------------------ round trips */

/* GL_WIRE_SEEDS=DIR: writes the encodings this suite starts from into DIR (fuzz/fuzz_wire's
 * seeds, fuzz/corpus/wire). */
static void seed(const char *name, const char *p, size_t len)
{
    const char *dir = getenv("GL_WIRE_SEEDS");
    if (!dir)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(p, 1, len, f), len);
    fclose(f);
}

START_TEST(test_every_field_of_a_run_result_survives)
{
    gl_run_result r, back;
    make_run(&r);
    size_t len;
    char *p = encode_run(&r, &len);
    seed("run", p, len);
    ck_assert_int_eq(get_run(p, len, &back), 0);
    same_run(&r, &back);
    /* none of it: a run that made nothing */
    gl_run_result none, none_back;
    memset(&none, 0, sizeof none);
    none.nargs = 2;
    char *q = encode_run(&none, &len);
    ck_assert_int_eq(get_run(q, len, &none_back), 0);
    same_run(&none, &none_back);
    free(p), free(q);
    gl_run_result_free(&r);
    gl_run_result_free(&back);
    gl_run_result_free(&none_back);
}
END_TEST

static void put_report(gl_wire_out *w, const void *o)
{
    gl_wire_put_report(w, o);
}

START_TEST(test_every_field_of_a_grade_report_survives)
{
    gl_grade_report r, back;
    memset(&r, 0, sizeof r);
    snprintf(r.lesson, sizeof r.lesson, "01-threads");
    snprintf(r.submission, sizeof r.submission, "mine.cu");
    snprintf(r.backend, sizeof r.backend, "sim");
    r.seed = 4242, r.sandboxed = 1, r.passed = 0, r.compiled = 1;
    r.compile_log = strdup("log");
    r.ndiags = 1;
    r.diags = calloc(1, sizeof *r.diags);
    snprintf(r.diags[0].text, sizeof r.diags[0].text, "error: x");
    r.nchecks = 2;
    r.checks = calloc(2, sizeof *r.checks);
    for (int i = 0; i < 2; i++) {
        snprintf(r.checks[i].name, sizeof r.checks[i].name, "check %d", i);
        snprintf(r.checks[i].detail, sizeof r.checks[i].detail, "n = %d: differs", i);
        r.checks[i].passed = i, r.checks[i].not_run = !i, r.checks[i].regs_unknown = 1;
    }
    size_t len;
    char *p = gl_wire_encode(put_report, &r, &len);
    seed("report", p, len);
    gl_wire_in in = gl_wire_in_of(p, len);
    ck_assert_int_eq(gl_wire_get_report(&in, &back), 0);
    ck_assert(in.p == in.end);
    gl_grade_report x = r, y = back;
    x.compile_log = y.compile_log = NULL, x.diags = y.diags = NULL, x.checks = y.checks = NULL;
    ck_assert(memcmp(&x, &y, sizeof x) == 0);
    same_str(r.compile_log, back.compile_log);
    same_blob(r.diags, back.diags, sizeof *r.diags);
    same_blob(r.checks, back.checks, 2 * sizeof *r.checks);
    for (size_t cut = 0; cut < len; cut++) { /* every truncation is refused */
        gl_wire_in t = gl_wire_in_of(p, cut);
        ck_assert_int_eq(gl_wire_get_report(&t, &y), -1);
        ck_assert_ptr_null(y.checks);
    }
    free(p);
    grade_report_free(&r);
    grade_report_free(&back);
}
END_TEST

static void put_exercise(gl_wire_out *w, const void *o)
{
    gl_wire_put_exercise(w, o);
}

START_TEST(test_every_field_of_an_exercise_run_survives)
{
    gl_exercise_result x, back;
    memset(&x, 0, sizeof x);
    x.n = 1000, x.nsizes = 3;
    for (int i = 0; i < GL_EXERCISE_MAX_SIZES; i++)
        x.sizes[i] = i * 10, x.secs[i] = i * 0.5;
    x.ref_status = GL_ERR_FAULT;
    snprintf(x.ref_error, sizeof x.ref_error, "the reference faulted");
    x.ref_nargs = 2;
    x.ref_buffers = calloc(2, sizeof *x.ref_buffers);
    x.ref_buffers[0].bytes = 8;
    x.ref_buffers[0].data = dup_bytes("abcdefgh", 8);
    x.cmp = (gl_exercise_cmp){1, 1000, 0.5, 1000, 872, 1, 128};
    size_t len;
    char *p = gl_wire_encode(put_exercise, &x, &len);
    seed("exercise", p, len);
    gl_wire_in in = gl_wire_in_of(p, len);
    ck_assert_int_eq(gl_wire_get_exercise(&in, &back), 0);
    gl_exercise_result a = x, b = back;
    a.ref_buffers = b.ref_buffers = NULL;
    ck_assert(memcmp(&a, &b, sizeof a) == 0);
    same_buffers(x.ref_buffers, back.ref_buffers, 2);
    free(p);
    exercise_result_free(&x);
    exercise_result_free(&back);
}
END_TEST

static void put_info(gl_wire_out *w, const void *o)
{
    gl_wire_put_device_info(w, o);
}

START_TEST(test_the_gpu_workers_records_are_the_structs_with_their_strings_ended)
{
    gl_device_info d, back;
    fill(&d, sizeof d, 13); /* strings not ended: the decoder ends them */
    size_t len;
    char *p = gl_wire_encode(put_info, &d, &len);
    ck_assert_uint_eq(len, sizeof d); /* the payload is the struct: old senders still fit */
    gl_wire_in in = gl_wire_in_of(p, len);
    ck_assert_int_eq(gl_wire_get_device_info(&in, &back), 0);
    ck_assert_uint_eq((unsigned char)back.name[sizeof back.name - 1], 0);
    ck_assert_uint_eq((unsigned char)back.driver[sizeof back.driver - 1], 0);
    END(d.name), END(d.driver);
    ck_assert(memcmp(&d, &back, sizeof d) == 0);
    in = gl_wire_in_of(p, len - 1); /* short */
    ck_assert_int_eq(gl_wire_get_device_info(&in, &back), -1);
    free(p);
    gl_library_run l, lback;
    fill(&l, sizeof l, 14);
    char q[sizeof l + 1];
    memcpy(q, &l, sizeof l);
    in = gl_wire_in_of(q, sizeof q); /* a byte too many */
    ck_assert_int_eq(gl_wire_get_library(&in, &lback), -1);
    in = gl_wire_in_of(q, sizeof l);
    ck_assert_int_eq(gl_wire_get_library(&in, &lback), 0);
    END(l.note);
    ck_assert(memcmp(&l, &lback, sizeof l) == 0);
}
END_TEST

/* ------------------------------------------------------------------ hostile input */

START_TEST(test_every_truncation_of_a_run_is_refused)
{
    gl_run_result r, back;
    make_run(&r);
    size_t len;
    char *p = encode_run(&r, &len);
    for (size_t cut = 0; cut < len; cut++) {
        char *part = dup_bytes(p, cut); /* its own allocation: ASan sees a read past it */
        ck_assert_msg(get_run(part, cut, &back) == -1, "a run cut at %zu of %zu decoded", cut, len);
        ck_assert_ptr_null(back.buffers);
        ck_assert_ptr_null(back.trace);
        free(part);
    }
    free(p);
    gl_run_result_free(&r);
}
END_TEST

/* A small deterministic generator (splitmix64). */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

START_TEST(test_corrupted_and_random_messages_never_crash_the_decoder)
{
    gl_run_result r, back;
    make_run(&r);
    size_t len;
    char *p = encode_run(&r, &len);
    uint64_t s = 1;
    int refused = 0;
    for (int i = 0; i < 4000; i++) {
        char *m = dup_bytes(p, len);
        const int flips = 1 + (int)(next(&s) % 4);
        for (int k = 0; k < flips; k++)
            m[next(&s) % len] ^= (char)(1u << (next(&s) % 8));
        if (get_run(m, len, &back) == 0)
            gl_run_result_free(&back); /* a flip inside data: still a run */
        else
            refused++;
        free(m);
    }
    ck_assert_int_gt(refused, 0);
    for (int i = 0; i < 2000; i++) { /* random bytes, random lengths */
        const size_t n = (size_t)(next(&s) % 600);
        char *m = malloc(n ? n : 1);
        for (size_t k = 0; k < n; k++)
            m[k] = (char)next(&s);
        if (get_run(m, n, &back) == 0)
            gl_run_result_free(&back);
        gl_grade_report rep;
        gl_wire_in in = gl_wire_in_of(m, n);
        if (gl_wire_get_report(&in, &rep) == 0)
            grade_report_free(&rep);
        gl_exercise_result ex;
        in = gl_wire_in_of(m, n);
        if (gl_wire_get_exercise(&in, &ex) == 0)
            exercise_result_free(&ex);
        free(m);
    }
    free(p);
    gl_run_result_free(&r);
}
END_TEST

/* Encodes r after change(r), expecting the decoder to refuse it. */
static void refused_after(void (*change)(gl_run_result *r))
{
    gl_run_result r, back;
    make_run(&r);
    change(&r);
    size_t len;
    char *p = encode_run(&r, &len);
    ck_assert_int_eq(get_run(p, len, &back), -1);
    free(p);
    gl_run_result_free(&r);
}

static void event_past_the_insns(gl_run_result *r)
{
    r->trace->events[0].pc = r->trace->ninsns;
}
static void mem_event_past_the_addresses(gl_run_result *r)
{
    r->trace->events[1].aux = (uint32_t)r->trace->naddrs;
}
static void printf_past_the_text(gl_run_result *r)
{
    r->trace->events[5].barrier = 7;
}
static void snapshot_past_its_bytes(gl_run_result *r)
{
    r->trace->snaps[0].size = 13;
}
static void event_in_no_block(gl_run_result *r)
{
    r->trace->events[0].block = 6;
}
static void register_event_past_the_registers(gl_run_result *r)
{
    r->trace->events[2].barrier = 2;
}
static void unknown_fault_kind(gl_run_result *r)
{
    r->fault.kind = (gl_fault_kind)(GL_FAULT_GPU + 1);
}
static void unknown_finding_kind(gl_run_result *r)
{
    r->findings[1].kind = (gl_finding_kind)999;
}
static void unknown_diag_severity(gl_run_result *r)
{
    r->diags[0].severity = (gl_diag_severity)7;
}

START_TEST(test_indexes_and_kinds_out_of_range_are_refused)
{
    refused_after(event_past_the_insns);
    refused_after(mem_event_past_the_addresses);
    refused_after(printf_past_the_text);
    refused_after(snapshot_past_its_bytes);
    refused_after(event_in_no_block);
    refused_after(register_event_past_the_registers);
    refused_after(unknown_fault_kind);
    refused_after(unknown_finding_kind);
    refused_after(unknown_diag_severity);
}
END_TEST

START_TEST(test_a_count_larger_than_the_message_is_refused_before_allocating)
{
    gl_wire_out w = gl_wire_out_mem();
    gl_wire_put_u64(&w, 1000); /* 1000 buffers announced, none sent */
    gl_wire_in in = gl_wire_in_of(w.mem, (size_t)w.n);
    gl_buffer *b;
    int n;
    ck_assert_int_eq(gl_wire_get_buffers(&in, &b, &n), -1);
    ck_assert_ptr_null(b);
    free(w.mem);
    w = gl_wire_out_mem();
    gl_wire_put_u64(&w, UINT64_MAX - 1); /* a string of 2^64 - 2 bytes */
    in = gl_wire_in_of(w.mem, (size_t)w.n);
    ck_assert_ptr_null(gl_wire_get_str(&in));
    ck_assert_int_eq(in.ok, 0);
    free(w.mem);
}
END_TEST

START_TEST(test_a_status_outside_gl_status_is_refused_and_a_long_message_cut)
{
    gl_wire_out w = gl_wire_out_mem();
    gl_wire_put_status(&w, GL_ERR_FAULT, "kernel.cu:5: out of bounds");
    gl_wire_put_status(&w, (gl_status)(GL_ERR_NOMEM + 1), "?");
    gl_wire_in in = gl_wire_in_of(w.mem, (size_t)w.n);
    gl_status st;
    char msg[11];
    ck_assert_int_eq(gl_wire_get_status(&in, &st, msg, sizeof msg), 0);
    ck_assert_int_eq(st, GL_ERR_FAULT);
    ck_assert_str_eq(msg, "kernel.cu:");
    ck_assert_int_eq(gl_wire_get_status(&in, &st, msg, sizeof msg), -1);
    ck_assert_int_eq(st, GL_ERR_TOOL);
    free(w.mem);
}
END_TEST

/* ------------------------------------------------------------------ through a pipe */

static void send_run_body(int fd, void *arg)
{
    _exit(gl_wire_send(fd, 7, 3, put_run, arg) == 0 ? 0 : 1);
}

START_TEST(test_a_run_goes_through_a_pipe_in_one_message)
{
    gl_run_result r, back;
    make_run(&r);
    gl_child c;
    ck_assert_int_eq(gl_child_spawn(&c, NULL, send_run_body, &r), 0);
    gl_child_msg m = {0};
    ck_assert_int_eq(gl_child_recv(c.fd, &m, 1u << 30, gl_child_now() + 30), GL_MSG_OK);
    ck_assert_uint_eq(m.h.type, 7);
    ck_assert_uint_eq(m.h.arg, 3);
    ck_assert_int_eq(get_run(m.data, (size_t)m.h.len, &back), 0);
    same_run(&r, &back);
    /* the child ends by itself after sending (gl_child_stop would kill it first: a
     * child not yet at its _exit then ends by SIGKILL, as it did once on a loaded CI) */
    gl_child_exit ex;
    ck_assert_int_eq(gl_child_wait(&c, gl_child_now() + 60, &ex), 1);
    gl_child_close(&c);
    ck_assert(ex.exited && ex.code == 0);
    gl_child_msg_free(&m);
    gl_run_result_free(&r);
    gl_run_result_free(&back);
}
END_TEST

/* ------------------------------------------------------------------ exercise.c */

START_TEST(test_an_exercise_run_compares_as_the_grader_and_its_trace_travels)
{
    setenv("GPULEARN_LESSONS", "lessons", 1);
    setenv("GPULEARN_NO_GPU", "1", 1);
    char dir[] = "/tmp/gl_wire_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/wrong.cu", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("extern \"C\" __global__ void vec_add(const float *a, const float *b, float *c, int n)\n"
          "{\n    int i = threadIdx.x; // forgot blockIdx.x * blockDim.x\n"
          "    if (i < n)\n        c[i] = a[i] + b[i];\n}\n",
          f);
    fclose(f);
    gl_lesson l;
    gl_error err = {0};
    ck_assert_int_eq(lesson_find("1", &l, &err), GL_OK);
    const gl_run_opts o = {.backend = GL_BACKEND_SIM,
                           .trace_level = TRACE_MEMORY,
                           .metrics = 1,
                           .trace_regs = 1,
                           .snapshot_bytes = 1u << 20,
                           .step_limit = l.exercise->step_limit};
    gl_run_result res;
    gl_exercise_result ex;
    const gl_status st = exercise_run(&l, path, 1000, &o, &res, &err, &ex);
    if (st == GL_ERR_TOOL) {
        printf("SKIP: exercise_run: no compiler (%s)\n", err.msg);
    } else {
        ck_assert_msg(st == GL_OK, "%s", err.msg);
        ck_assert_int_eq(ex.ref_status, GL_OK);
        /* 8 blocks of 128: only elements 0..127 are right; the first wrong one is 128 */
        ck_assert(ex.cmp.done);
        ck_assert_int_eq(ex.cmp.n, 1000);
        ck_assert_uint_eq(ex.cmp.elements, 1000);
        ck_assert_uint_eq(ex.cmp.differ, 872);
        ck_assert_int_eq(ex.cmp.first_arg, 2);
        ck_assert_uint_eq(ex.cmp.first, 128);
        ck_assert(ex.cmp.tolerance == 0);
        /* a real trace passes the decoder's checks and comes back the same */
        ck_assert_ptr_nonnull(res.trace);
        ck_assert_uint_gt(res.trace->nevents, 0);
        size_t len;
        char *p = encode_run(&res, &len);
        gl_run_result back;
        ck_assert_int_eq(get_run(p, len, &back), 0);
        same_run(&res, &back);
        free(p);
        gl_run_result_free(&back);
    }
    gl_run_result_free(&res);
    exercise_result_free(&ex);
    lesson_free(&l);
    unlink(path);
    rmdir(dir);
}
END_TEST

static Suite *wire_suite(void)
{
    Suite *s = suite_create("wire");
    TCase *tc = tcase_create("wire");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_every_field_of_a_run_result_survives);
    tcase_add_test(tc, test_every_field_of_a_grade_report_survives);
    tcase_add_test(tc, test_every_field_of_an_exercise_run_survives);
    tcase_add_test(tc, test_the_gpu_workers_records_are_the_structs_with_their_strings_ended);
    tcase_add_test(tc, test_every_truncation_of_a_run_is_refused);
    tcase_add_test(tc, test_corrupted_and_random_messages_never_crash_the_decoder);
    tcase_add_test(tc, test_indexes_and_kinds_out_of_range_are_refused);
    tcase_add_test(tc, test_a_count_larger_than_the_message_is_refused_before_allocating);
    tcase_add_test(tc, test_a_status_outside_gl_status_is_refused_and_a_long_message_cut);
    tcase_add_test(tc, test_a_run_goes_through_a_pipe_in_one_message);
    tcase_add_test(tc, test_an_exercise_run_compares_as_the_grader_and_its_trace_travels);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(wire_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
