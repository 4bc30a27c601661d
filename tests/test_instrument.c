/* test_instrument.c — GPU traces by PTX instrumentation (runtime/instrument.h), checked
 * on the simulator: the instrumented PTX of real kernels (tests/fixtures/ptx, compiled
 * by nvcc and clang) parses, runs with the same outputs as the original, and the trace
 * decoded from its buffer equals the simulator's own trace of the original kernel
 * (memory requests as multisets per block, warp and instruction), so the analyses
 * (trace/analysis.h) computed from both agree exactly. */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/backend.h"
#include "runtime/compile.h"
#include "runtime/instrument.h"
#include "runtime/spec.h"
#include "sim/sim.h"
#include "trace/analysis.h"
#include "trace/perfetto.h"

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = malloc((size_t)n + 1);
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    if (p)
        p[n] = 0;
    fclose(f);
    return p;
}

/* A memory request for comparison: everything but time. */
typedef struct req {
    uint32_t block, mask;
    int32_t pc;
    uint16_t warp;
    uint8_t space, op, width;
    uint64_t a[32];
} req;

static int req_cmp(const void *x, const void *y)
{
    const req *a = x, *b = y;
#define C(f)                                                                                       \
    if (a->f != b->f)                                                                              \
    return a->f < b->f ? -1 : 1
    C(block);
    C(warp);
    C(pc);
    C(space);
    C(op);
    C(width);
    C(mask);
#undef C
    return memcmp(a->a, b->a, sizeof a->a);
}

/* Knobs of compare_spec and requests() (one test at a time: Check forks each). */
static int pc_first = 0, pc_last = 1 << 30; /* requests() keeps these instructions */
static int ignore_local_addrs;              /* GPU vs simulator: local windows may differ in base */
static size_t last_stored;                  /* events and drops of compare_spec's decoded trace */
static uint64_t last_dropped;
static uint64_t last_lost;       /* the records its buffer had no room for (decode's *lost) */
static size_t decode_max_events; /* the decoded trace's cap (trace_new; 0: the default) */
static int instr_mode = 1;       /* gl_instrument_ptx's sim_mode in compare_spec */
static trace_t **keep_trace;     /* set: compare_spec hands its decoded trace over */
/* set: changes the trace buffer before it is decoded (what a GPU would write) */
static void (*mutate_ibuf)(void *buf, size_t bytes, const gl_instrumented *ins);

/* buffer addresses: requests() with norm_res set maps every global address inside one
 * of norm_res's buffers (norm_res->dptr, buffers[].bytes) to NORM_TAG | arg << 40 |
 * offset, so traces of runs whose buffers lie at different device addresses (the
 * simulator's 0x700000000000 + gaps, cudaMalloc's) compare equal; an address in no
 * buffer stays raw and is counted in norm_unmapped. */
#define NORM_TAG (1ull << 63)
static const gl_run_result *norm_res;
static size_t norm_unmapped;

static uint64_t norm_addr(const gl_run_result *res, uint64_t a)
{
    for (int i = 0; res && res->dptr && i < res->nargs; i++) {
        uint64_t base = res->dptr[i];
        if (base && a >= base && a - base < res->buffers[i].bytes)
            return NORM_TAG | (uint64_t)i << 40 | (a - base);
    }
    return a;
}

/* "arg 1 + 0x40" for a normalised address, "0x7fe7abe01000 (in no buffer)" for a raw
 * one; into buf (returned). */
static const char *addr_str(uint64_t a, char *buf, size_t n)
{
    if (a & NORM_TAG)
        snprintf(buf, n, "arg %u + 0x%llx", (unsigned)((a >> 40) & 0xffff),
                 (unsigned long long)(a & ((1ull << 40) - 1)));
    else
        snprintf(buf, n, "%llx%s", (unsigned long long)a, norm_res && a ? " (in no buffer)" : "");
    return buf;
}

/* The traced memory requests of t (global, shared and local) of instructions
 * pc_first..pc_last, sorted. */
static req *requests(const trace_t *t, size_t *n)
{
    req *r = calloc(t->nevents + 1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    size_t k = 0;
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->kind != TRACE_EV_MEM || e->space == TRACE_SPACE_CONST ||
            e->space == TRACE_SPACE_PARAM || e->pc < pc_first || e->pc > pc_last)
            continue;
        req *q = &r[k++];
        q->block = e->block;
        q->mask = e->mask;
        q->pc = e->pc;
        q->warp = e->warp;
        q->space = e->space;
        q->op = e->op;
        q->width = e->width;
        if (!(ignore_local_addrs && e->space == TRACE_SPACE_LOCAL))
            memcpy(q->a, trace_event_addrs(t, e), sizeof q->a);
        if (norm_res && e->space == TRACE_SPACE_GLOBAL)
            for (int l = 0; l < 32; l++) {
                if (!(e->mask >> l & 1))
                    continue;
                q->a[l] = norm_addr(norm_res, q->a[l]);
                norm_unmapped += !(q->a[l] & NORM_TAG);
            }
    }
    qsort(r, k, sizeof *r, req_cmp);
    *n = k;
    return r;
}

static size_t count_kind(const trace_t *t, int kind)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nevents; i++)
        n += t->events[i].kind == kind;
    return n;
}

/* Finds the .entry `want` (exact or C++-mangled). */
static const char *entry_of(const ptx_module_t *m, const char *want)
{
    char prefix[300];
    snprintf(prefix, sizeof prefix, "_Z%zu%s", strlen(want), want);
    for (int i = 0; i < ptx_entry_count(m); i++)
        if (strcmp(ptx_entry_name(m, i), want) == 0 ||
            strncmp(ptx_entry_name(m, i), prefix, strlen(prefix)) == 0)
            return ptx_entry_name(m, i);
    return NULL;
}

typedef struct outcome {
    gl_buffer *bufs;
    int nargs;
    trace_t *tr;
    gl_metrics met;
} outcome;

/* Runs `kernel` of m with the spec's buffers; ibuf_bytes > 0: the instrumented kernel,
 * with a trace buffer of that many bytes appended (returned in *ibuf). */
static sim_status run_sim(const gl_spec *spec, const ptx_module_t *m, const char *kernel,
                          size_t ibuf_bytes, uint64_t nrec, void **ibuf, outcome *o, int allow_fail,
                          uint64_t seed)
{
    memset(o, 0, sizeof *o);
    gl_error err = {0};
    ck_assert_int_eq(spec_buffers_new(spec, &o->bufs, &err), GL_OK);
    o->nargs = spec->nargs;
    o->tr = ibuf_bytes ? NULL : trace_new(TRACE_MEMORY, 0);
    sim_config cfg = {.trace = o->tr, .schedule_random = seed != 0, .schedule_seed = seed};
    sim_t *s = sim_new(&cfg);
    uint64_t slots[66];
    void *params[66];
    uint64_t dptr[66];
    ck_assert_int_le(spec->nargs, 64);
    for (int i = 0; i < spec->nargs; i++) {
        const gl_arg *a = &spec->args[i];
        slots[i] = 0;
        if (a->is_ptr) {
            ck_assert_int_eq(sim_malloc(s, o->bufs[i].bytes, a->name, &dptr[i]), SIM_OK);
            ck_assert_int_eq(sim_memcpy_htod(s, dptr[i], o->bufs[i].data, o->bufs[i].bytes),
                             SIM_OK);
            slots[i] = dptr[i];
        } else if (a->type == GL_F32) {
            float v = (float)a->value.f;
            memcpy(&slots[i], &v, 4);
        } else if (a->type == GL_F64) {
            memcpy(&slots[i], &a->value.f, 8);
        } else {
            memcpy(&slots[i], &a->value.u, 8); /* little-endian: low bytes first */
        }
        params[i] = &slots[i];
    }
    uint64_t tb = 0;
    if (ibuf_bytes) {
        unsigned nb = spec->grid[0] * spec->grid[1] * spec->grid[2];
        unsigned wpb = (spec->block[0] * spec->block[1] * spec->block[2] + 31) / 32;
        void *host = calloc(1, ibuf_bytes);
        ck_assert_ptr_nonnull(host);
        gl_instrument_trace_init(host, nb, wpb, nrec);
        ck_assert_int_eq(sim_malloc(s, ibuf_bytes, "trace", &tb), SIM_OK);
        ck_assert_int_eq(sim_memcpy_htod(s, tb, host, ibuf_bytes), SIM_OK);
        free(host);
        slots[spec->nargs] = tb;
        params[spec->nargs] = &slots[spec->nargs];
    }
    sim_result r;
    sim_status st =
        sim_launch(s, m, kernel, spec->grid, spec->block, spec->dynamic_shared_bytes, params, &r);
    if (st != SIM_OK && allow_fail) {
        sim_result_free(&r);
        sim_free(s);
        return st;
    }
    ck_assert_msg(st == SIM_OK, "%s: %s", kernel, r.fault.message);
    sim_result_free(&r);
    for (int i = 0; i < spec->nargs; i++)
        if (spec->args[i].is_ptr)
            ck_assert_int_eq(sim_memcpy_dtoh(s, o->bufs[i].data, dptr[i], o->bufs[i].bytes),
                             SIM_OK);
    if (ibuf_bytes) {
        *ibuf = malloc(ibuf_bytes);
        ck_assert_ptr_nonnull(*ibuf);
        ck_assert_int_eq(sim_memcpy_dtoh(s, *ibuf, tb, ibuf_bytes), SIM_OK);
    }
    sim_free(s);
    return SIM_OK;
}

static void outcome_free(outcome *o)
{
    spec_buffers_free(o->bufs, o->nargs);
    trace_free(o->tr);
    gl_metrics_free(&o->met);
}

/* The whole comparison for `ptx` run by `spec` (label names it in messages). nrec:
 * trace buffer records (0 = plenty). Returns the number of memory requests compared, or
 * (size_t)-1 when the original kernel does not run on the simulator (allow_skip). */
static size_t compare_spec(const char *fixture, const char *ptx, const gl_spec *sp, uint64_t nrec,
                           int *truncated, int allow_skip)
{
    const char *path = fixture;
    gl_spec spec = *sp;
    gl_error err = {0};
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status ps0 = ptx_parse(ptx, strlen(ptx), path, &m, &diag);
    if (ps0 != SIM_OK && allow_skip) {
        free(diag);
        return (size_t)-1;
    }
    ck_assert_msg(ps0 == SIM_OK, "%s: %s", path, diag ? diag : "");
    const char *kernel = entry_of(m, spec.kernel);
    ck_assert_ptr_nonnull(kernel);

    gl_instrumented ins;
    gl_status st = gl_instrument_ptx(ptx, kernel, instr_mode, &ins, &err);
    ck_assert_msg(st == GL_OK, "%s", err.msg);
    if (!allow_skip)
        ck_assert_int_gt(ins.nmem, 0);
    ptx_module_t *mi = NULL;
    sim_status ps = ptx_parse(ins.ptx, strlen(ins.ptx), "instrumented.ptx", &mi, &diag);
    if (ps != SIM_OK) {
        FILE *f = fopen("/tmp/glx_bad.ptx", "w");
        if (f) {
            fputs(ins.ptx, f);
            fclose(f);
        }
    }
    ck_assert_msg(ps == SIM_OK, "instrumented %s does not parse: %s", fixture, diag ? diag : "");

    pc_first = ins.pc_first;
    pc_last = ins.pc_last;
    outcome a, b;
    if (run_sim(&spec, m, kernel, 0, 0, NULL, &a, allow_skip, 0) != SIM_OK) {
        outcome_free(&a);
        ptx_module_free(m);
        ptx_module_free(mi);
        gl_instrumented_free(&ins);
        return (size_t)-1;
    }
    /* Corpus kernels whose trace or outputs depend on the schedule (contended CAS
     * loops, atomics whose order shows): seen by a second, randomly scheduled run of the
     * original; for those only the decoding is checked, not equality. */
    int deterministic = 1;
    if (allow_skip) {
        outcome r;
        if (run_sim(&spec, m, kernel, 0, 0, NULL, &r, 1, 7) != SIM_OK) {
            deterministic = 0;
        } else {
            size_t n1 = 0, n2 = 0;
            req *q1 = requests(a.tr, &n1), *q2 = requests(r.tr, &n2);
            deterministic = n1 == n2 && memcmp(q1, q2, n1 * sizeof *q1) == 0;
            for (int i = 0; i < spec.nargs && deterministic; i++)
                if (spec.args[i].is_ptr &&
                    memcmp(a.bufs[i].data, r.bufs[i].data, a.bufs[i].bytes) != 0)
                    deterministic = 0;
            free(q1);
            free(q2);
        }
        outcome_free(&r);
    }
    unsigned nb = spec.grid[0] * spec.grid[1] * spec.grid[2];
    unsigned wpb = (spec.block[0] * spec.block[1] * spec.block[2] + 31) / 32;
    if (!nrec) {
        /* room for the busiest warp in every warp's share (simulator mode) */
        uint64_t *per = calloc((size_t)nb * wpb, sizeof *per), most = 0;
        ck_assert_ptr_nonnull(per);
        for (size_t i = 0; i < a.tr->nevents; i++)
            if (a.tr->events[i].kind == TRACE_EV_MEM) {
                uint64_t *c = &per[(size_t)a.tr->events[i].block * wpb + a.tr->events[i].warp];
                if (++*c > most)
                    most = *c;
            }
        free(per);
        /* a kernel whose requests depend on the schedule (a contended CAS loop) may
         * make more in its instrumented run, whose extra instructions change how the
         * resident blocks interleave: twice the room */
        nrec = (most * (deterministic ? 1 : 2) + 2) * nb * wpb;
    }
    size_t bytes = gl_instrument_trace_bytes(nb, wpb, nrec);
    void *ibuf = NULL;
    ck_assert_int_eq(run_sim(&spec, mi, kernel, bytes, nrec, &ibuf, &b, 0, 0), SIM_OK);

    /* same outputs */
    for (int i = 0; i < spec.nargs && deterministic; i++)
        if (spec.args[i].is_ptr)
            ck_assert_msg(memcmp(a.bufs[i].data, b.bufs[i].data, a.bufs[i].bytes) == 0,
                          "%s: buffer %s differs", fixture, spec.args[i].name);

    /* the shared-variable table block 0 wrote: on the simulator each address is the
     * offset where gl_instrument_ptx expects the simulator to put it (its layout rules
     * replicated), which is what GPU addresses are translated to */
    for (int i = 0; i < ins.nsyms; i++) {
        uint64_t v;
        memcpy(&v, (unsigned char *)ibuf + 32 + 8 * i, 8);
        ck_assert_msg(v == ins.syms[i].sim_offset, "%s: shared '%s' at %llu, expected %llu",
                      fixture, ins.syms[i].name, (unsigned long long)v,
                      (unsigned long long)ins.syms[i].sim_offset);
    }
    if (mutate_ibuf)
        mutate_ibuf(ibuf, bytes, &ins);
    /* decoded trace */
    b.tr = trace_new(TRACE_MEMORY, decode_max_events);
    ck_assert_int_eq(
        gl_instrument_trace_decode(ibuf, bytes, &ins, m, spec.grid, spec.block, b.tr, &last_lost),
        0);
    free(ibuf);
    *truncated = b.tr->truncated;
    last_stored = b.tr->nevents;
    last_dropped = b.tr->dropped;
    size_t na = 0, nbq = 0;
    req *ra = requests(a.tr, &na), *rb = requests(b.tr, &nbq);
    if (!deterministic) {
        ck_assert_int_eq(b.tr->truncated, 0);
        ck_assert_uint_eq(count_kind(b.tr, TRACE_EV_BLOCK_START), nb);
        na = (size_t)-2;
    } else if (!b.tr->truncated) {
        ck_assert_uint_eq(count_kind(b.tr, TRACE_EV_BLOCK_START), nb);
        ck_assert_uint_eq(count_kind(b.tr, TRACE_EV_BLOCK_END), nb);
        if (nbq != na)
            for (size_t i = 0, jj = 0; i < na || jj < nbq;) {
                int c = i == na ? 1 : jj == nbq ? -1 : req_cmp(&ra[i], &rb[jj]);
                if (c)
                    fprintf(stderr, "%s %s: block %u warp %u pc %d space %d mask %08x a0 %llx\n",
                            spec.kernel, c < 0 ? "sim only" : "gpu only",
                            c < 0 ? ra[i].block : rb[jj].block, c < 0 ? ra[i].warp : rb[jj].warp,
                            c < 0 ? ra[i].pc : rb[jj].pc, c < 0 ? ra[i].space : rb[jj].space,
                            c < 0 ? ra[i].mask : rb[jj].mask,
                            (unsigned long long)(c < 0 ? ra[i].a[0] : rb[jj].a[0]));
                if (c <= 0)
                    i++;
                if (c >= 0)
                    jj++;
            }
        ck_assert_msg(nbq == na, "%s: %zu requests decoded, the simulator has %zu", spec.kernel,
                      nbq, na);
        for (size_t i = 0; i < na; i++)
            ck_assert_msg(req_cmp(&ra[i], &rb[i]) == 0,
                          "%s: request %zu differs: block %u warp %u pc %d mask %08x / "
                          "block %u warp %u pc %d mask %08x, lane0 %llx / %llx",
                          fixture, i, ra[i].block, ra[i].warp, ra[i].pc, ra[i].mask, rb[i].block,
                          rb[i].warp, rb[i].pc, rb[i].mask, (unsigned long long)ra[i].a[0],
                          (unsigned long long)rb[i].a[0]);
        /* analyses agree on every memory metric (where every request is in the entry) */
        size_t all = 0;
        pc_first = 0;
        pc_last = 1 << 30;
        free(requests(a.tr, &all));
        if (all == na) {
            ck_assert_int_eq(gl_metrics_from_trace(a.tr, &a.met), 0);
            ck_assert_int_eq(gl_metrics_from_trace(b.tr, &b.met), 0);
            const gl_counts *x = &a.met.total, *y = &b.met.total;
#define SAME(f)                                                                                    \
    ck_assert_msg(x->f == y->f, "%s: " #f " %llu vs %llu", fixture, (unsigned long long)x->f,      \
                  (unsigned long long)y->f)
            SAME(gld_requests);
            SAME(gld_sectors);
            SAME(gst_requests);
            SAME(gst_sectors);
            SAME(shld_requests);
            SAME(shld_wavefronts);
            SAME(shld_bank_conflicts);
            SAME(shst_requests);
            SAME(shst_wavefronts);
            SAME(shst_bank_conflicts);
            SAME(local_ld_requests);
            SAME(local_st_requests);
            SAME(global_atom_requests);
            SAME(shared_atom_requests);
            SAME(global_atom_threads);
            SAME(shared_atom_threads);
#undef SAME
        }
    } else {
        ck_assert_uint_le(nbq, na);
    }
    free(ra);
    free(rb);
    outcome_free(&a);
    if (keep_trace) {
        *keep_trace = b.tr;
        b.tr = NULL;
    }
    outcome_free(&b);
    ptx_module_free(m);
    ptx_module_free(mi);
    gl_instrumented_free(&ins);
    return na;
}

/* compare_spec for fixture NAME.COMPILER.ptx and a spec given as JSON text. */
static size_t compare(const char *fixture, const char *json, uint64_t nrec, int *truncated)
{
    char path[256];
    snprintf(path, sizeof path, "tests/fixtures/ptx/%s.ptx", fixture);
    char *ptx = read_file(path);
    ck_assert_msg(ptx != NULL, "%s", path);
    cJSON *j = cJSON_Parse(json);
    ck_assert_ptr_nonnull(j);
    gl_spec spec;
    gl_error err = {0};
    ck_assert_msg(spec_from_json(j, "spec.json", "tests", NULL, &spec, &err) == GL_OK, "%s",
                  err.msg);
    cJSON_Delete(j);
    size_t n = compare_spec(path, ptx, &spec, nrec, truncated, 0);
    spec_free(&spec);
    free(ptx);
    return n;
}

static const char *const compilers[] = {"nvcc", "clang"};

#define IN_F32                                                                                     \
    "{\"name\": \"in\", \"type\": \"f32*\", \"len\": 4096, \"init\": {\"iota\": {\"start\": "      \
    "0, \"step\": 1}}}"
#define OUT_F32 "{\"name\": \"out\", \"type\": \"f32*\", \"len\": 4096}"

static const char vec_add_json[] =
    "{\"source\": \"corpus/vec_add.cu\", \"kernel\": \"vec_add\", \"grid\": [4], \"block\": [256],"
    " \"args\": ["
    "  {\"name\": \"a\", \"type\": \"f32*\", \"len\": 1000, \"init\": {\"random\": "
    "{\"seed\": 11, \"min\": -1000, \"max\": 1000}}},"
    "  {\"name\": \"b\", \"type\": \"f32*\", \"len\": 1000, \"init\": {\"random\": "
    "{\"seed\": 12, \"min\": -1, \"max\": 1}}},"
    "  {\"name\": \"c\", \"type\": \"f32*\", \"len\": 1000},"
    "  {\"name\": \"n\", \"type\": \"i32\", \"value\": 1000}]}";

START_TEST(test_vec_add_instrumented_trace_equals_simulator_trace)
{
    char f[64];
    snprintf(f, sizeof f, "vec_add.%s", compilers[_i]);
    int trunc = 0;
    /* 1000 threads: 32 warps, 3 requests each (2 loads, 1 store) */
    ck_assert_uint_eq(compare(f, vec_add_json, 0, &trunc), 96);
    ck_assert_int_eq(trunc, 0);
}
END_TEST

START_TEST(test_mat_add_2d_blocks_instrumented_trace_equals_simulator_trace)
{
    char f[64];
    snprintf(f, sizeof f, "mat_add.%s", compilers[_i]);
    int trunc = 0;
    compare(f,
            "{\"source\": \"corpus/mat_add.cu\", \"kernel\": \"mat_add\", "
            "\"grid\": [3, 5, 1], \"block\": [16, 8, 1], \"args\": ["
            "{\"name\": \"A\", \"type\": \"i32*\", \"len\": 1665, \"init\": {\"iota\": "
            "{\"start\": 0, \"step\": 1}}},"
            "{\"name\": \"B\", \"type\": \"i32*\", \"len\": 1665, \"init\": {\"random\": "
            "{\"seed\": 9, \"min\": -1000, \"max\": 1000}}},"
            "{\"name\": \"C\", \"type\": \"i32*\", \"len\": 1665},"
            "{\"name\": \"rows\", \"type\": \"i32\", \"value\": 37},"
            "{\"name\": \"cols\", \"type\": \"i32\", \"value\": 45}]}",
            0, &trunc);
    ck_assert_int_eq(trunc, 0);
}
END_TEST

START_TEST(test_reduce_shared_and_atomic_instrumented_trace_equals_simulator_trace)
{
    char f[64];
    snprintf(f, sizeof f, "reduce.%s", compilers[_i]);
    int trunc = 0;
    compare(f,
            "{\"source\": \"corpus/reduce.cu\", \"kernel\": \"reduce_sum\", "
            "\"grid\": [9], \"block\": [256], \"args\": ["
            "{\"name\": \"in\", \"type\": \"i32*\", \"len\": 2100, \"init\": {\"random\": "
            "{\"seed\": 21, \"min\": -1000, \"max\": 1000}}},"
            "{\"name\": \"out\", \"type\": \"i32*\", \"len\": 1},"
            "{\"name\": \"n\", \"type\": \"i32\", \"value\": 2100}]}",
            0, &trunc);
    ck_assert_int_eq(trunc, 0);
}
END_TEST

/* tests/kernels/check/metrics.cu: coalesced and strided copies, a 2-way shared bank
 * conflict, a column read of a 32x32 tile (32-way) and its padded fix, divergent loops,
 * atomics on four counters, a shared-memory scan. */
static const char *const metrics_specs[] = {
    "\"copy_coalesced\", \"grid\": [2], \"block\": [64], \"args\": [" IN_F32 "," OUT_F32 "]",
    "\"copy_strided\", \"grid\": [2], \"block\": [64], \"args\": [" IN_F32 "," OUT_F32 "]",
    "\"shared_stride2\", \"grid\": [1], \"block\": [32], \"args\": [" OUT_F32 "]",
    "\"tile_column\", \"grid\": [1], \"block\": [32], \"args\": [" OUT_F32 "]",
    "\"divergent_loops\", \"grid\": [2], \"block\": [64], \"args\": [" IN_F32 "," OUT_F32
    ", {\"name\": \"n\", \"type\": \"i32\", \"value\": 100}]",
    "\"four_counters\", \"grid\": [3], \"block\": [96], \"args\": [{\"name\": \"bins\", "
    "\"type\": \"i32*\", \"len\": 4}]",
    "\"scan32\", \"grid\": [1], \"block\": [32], \"args\": [" IN_F32 "," OUT_F32 "]",
};

START_TEST(test_metrics_kernels_strided_and_bank_conflicts_agree)
{
    for (size_t k = 0; k < sizeof metrics_specs / sizeof *metrics_specs; k++) {
        char f[64], json[1024];
        snprintf(f, sizeof f, "metrics.%s", compilers[_i]);
        snprintf(json, sizeof json, "{\"source\": \"kernels/check/metrics.cu\", \"kernel\": %s}",
                 metrics_specs[k]);
        int trunc = 0;
        compare(f, json, 0, &trunc);
        ck_assert_int_eq(trunc, 0);
    }
}
END_TEST

START_TEST(test_small_capacity_marks_the_trace_truncated)
{
    int trunc = 0;
    compare("vec_add.nvcc", vec_add_json, 10, &trunc);
    ck_assert_int_eq(trunc, 1);
    ck_assert_uint_gt(last_lost, 0);
}
END_TEST

/* A decoded trace that keeps fewer events than the buffer holds is cut, but loses no
 * record: a sink (the metrics) saw every one. gpulearn run --metrics-json on a GPU keeps
 * one event and called every GPU trace "truncated: N records did not fit", so the
 * metrics of every GPU run were marked incomplete. */
START_TEST(test_a_trace_cap_loses_no_record)
{
    int trunc = 0;
    decode_max_events = 1;
    compare("vec_add.nvcc", vec_add_json, 0, &trunc);
    decode_max_events = 0;
    ck_assert_int_eq(trunc, 1);
    ck_assert_uint_eq(last_stored, 1);
    ck_assert_uint_gt(last_dropped, 0);
    ck_assert_uint_eq(last_lost, 0);
}
END_TEST

/* The GPU's instrumentation (one atomic record counter) runs on the simulator too, for
 * kernels without divergent loops (where the simulator's spin-loop policy would make
 * the extra atomic change reconvergence): same trace; a small capacity keeps exactly
 * that many records and counts the rest as dropped. */
START_TEST(test_gpu_mode_instrumentation_gives_the_same_trace_on_the_simulator)
{
    instr_mode = 0;
    int trunc = 0;
    char f[64];
    snprintf(f, sizeof f, "vec_add.%s", compilers[_i]);
    ck_assert_uint_eq(compare(f, vec_add_json, 0, &trunc), 96);
    ck_assert_int_eq(trunc, 0);
    snprintf(f, sizeof f, "reduce.%s", compilers[_i]);
    compare(f,
            "{\"source\": \"corpus/reduce.cu\", \"kernel\": \"reduce_sum\", \"grid\": [9], "
            "\"block\": [256], \"args\": ["
            "{\"name\": \"in\", \"type\": \"i32*\", \"len\": 2100, \"init\": {\"random\": "
            "{\"seed\": 21, \"min\": -1000, \"max\": 1000}}},"
            "{\"name\": \"out\", \"type\": \"i32*\", \"len\": 1},"
            "{\"name\": \"n\", \"type\": \"i32\", \"value\": 2100}]}",
            0, &trunc);
    ck_assert_int_eq(trunc, 0);
    /* 96 requests + 4 block starts + 4 block ends; room for 10 */
    compare(_i ? "vec_add.clang" : "vec_add.nvcc", vec_add_json, 10, &trunc);
    ck_assert_int_eq(trunc, 1);
    ck_assert_uint_eq(last_stored, 10);
    ck_assert_uint_eq(last_dropped, 94);
    instr_mode = 1;
}
END_TEST

/* Chrome/Perfetto JSON of a GPU trace (here: GPU-mode instrumentation run on the
 * simulator): one slice per block on its SM with its memory requests, times in
 * microseconds from the first event, no warp tracks. */
START_TEST(test_perfetto_of_a_gpu_trace_shows_blocks_on_sms)
{
    instr_mode = 0;
    trace_t *t = NULL;
    keep_trace = &t;
    int trunc = 0;
    compare("vec_add.nvcc", vec_add_json, 0, &trunc);
    keep_trace = NULL;
    instr_mode = 1;
    ck_assert_ptr_nonnull(t);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    ck_assert_int_eq(gl_perfetto_write(m, t, NULL), GL_PERFETTO_OK);
    fclose(m);
    cJSON *j = cJSON_Parse(text);
    ck_assert_msg(j != NULL, "not JSON: %.300s", text);
    const cJSON *other = cJSON_GetObjectItemCaseSensitive(j, "otherData");
    const cJSON *clock = cJSON_GetObjectItemCaseSensitive(other, "clock");
    ck_assert(cJSON_IsString(clock) && strstr(clock->valuestring, "globaltimer"));
    int blocks = 0, warps = 0;
    double reqs = 0;
    const cJSON *ev;
    cJSON_ArrayForEach(ev, cJSON_GetObjectItemCaseSensitive(j, "traceEvents"))
    {
        const cJSON *cat = cJSON_GetObjectItemCaseSensitive(ev, "cat");
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(ev, "name");
        const cJSON *args = cJSON_GetObjectItemCaseSensitive(ev, "args");
        if (cJSON_IsString(cat) && strcmp(cat->valuestring, "block") == 0) {
            blocks++;
            reqs += cJSON_GetObjectItemCaseSensitive(args, "memory_requests")->valuedouble;
            ck_assert(cJSON_GetObjectItemCaseSensitive(ev, "ts")->valuedouble >= 0);
        }
        if (cJSON_IsString(name) && strcmp(name->valuestring, "thread_name") == 0 &&
            strstr(cJSON_GetObjectItemCaseSensitive(args, "name")->valuestring, "warp"))
            warps++;
    }
    ck_assert_int_eq(blocks, 4);
    ck_assert(reqs == 96);
    ck_assert_int_eq(warps, 0);
    cJSON_Delete(j);
    free(text);
    trace_free(t);
}
END_TEST

/* A GPU places shared variables where ptxas decides (on sm_90 after 1 KiB reserved by
 * the system, other variables in another order). Moves this kernel's two arrays
 * `tile` and `padded` apart (0x400 up, and their order swapped) in the buffer, as a GPU might: the
 * decoded trace is still the simulator's. */
static void move_shared(void *buf, size_t bytes, const gl_instrumented *ins)
{
    unsigned char *p = buf;
    uint64_t roff, cap, gpu[GL_ITRACE_MAX_SHARED_SYMS], moved[GL_ITRACE_MAX_SHARED_SYMS];
    memcpy(&cap, p + 8, 8);
    memcpy(&roff, p + 16, 8);
    for (int i = 0; i < ins->nsyms; i++) {
        memcpy(&gpu[i], p + 32 + 8 * i, 8);
        moved[i] = gpu[i] + 0x400 + (uint64_t)(ins->nsyms - 1 - i) * 0x8000;
        memcpy(p + 32 + 8 * i, &moved[i], 8);
    }
    for (uint64_t r = 0; r < cap && roff + (r + 1) * GL_ITRACE_RECORD_BYTES <= bytes; r++) {
        unsigned char *q = p + roff + r * GL_ITRACE_RECORD_BYTES;
        uint32_t kind, mask, info;
        memcpy(&kind, q, 4);
        memcpy(&mask, q + 16, 4);
        memcpy(&info, q + 20, 4);
        if (kind != GL_ITRACE_MEM || (info & 0xff) != TRACE_SPACE_SHARED)
            continue;
        for (int lane = 0; lane < 32; lane++) {
            if (!((mask >> lane) & 1))
                continue;
            uint64_t a;
            memcpy(&a, q + 64 + 8 * lane, 8);
            for (int i = ins->nsyms - 1; i >= 0; i--)
                if (a >= gpu[i] && (ins->syms[i].size == 0 || a - gpu[i] < ins->syms[i].size)) {
                    a = moved[i] + (a - gpu[i]);
                    break;
                }
            memcpy(q + 64 + 8 * lane, &a, 8);
        }
    }
}

START_TEST(test_gpu_shared_layout_is_translated_to_the_simulators)
{
    mutate_ibuf = move_shared;
    int trunc = 0;
    char f[64];
    snprintf(f, sizeof f, "metrics.%s", compilers[_i]);
    compare(f,
            "{\"source\": \"kernels/check/metrics.cu\", \"kernel\": \"tile_column\", "
            "\"grid\": [1], \"block\": [32], \"args\": [" OUT_F32 "]}",
            0, &trunc);
    mutate_ibuf = NULL;
    ck_assert_int_eq(trunc, 0);
}
END_TEST

/* ptxas from the CUDA toolkit, when installed: it assembles PTX without a GPU. */
static const char *ptxas_path(void)
{
    static char path[512];
    const char *home = getenv("CUDA_HOME");
    snprintf(path, sizeof path, "%s/bin/ptxas", home && *home ? home : "/usr/local/cuda");
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fclose(f);
    return path;
}

/* Whether ptxas assembles `ptx` for sm_90 (the H100/H200 the GPU tests run on); the
 * PTX is kept in a temporary file named in *kept when it does not. */
static int assembles(const char *ptxas, const char *ptx, char *kept, size_t keptlen)
{
    char tmp[] = "/tmp/glx_instr_XXXXXX";
    int fd = mkstemp(tmp);
    ck_assert_int_ge(fd, 0);
    FILE *o = fdopen(fd, "w");
    fputs(ptx, o);
    fclose(o);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s' -arch=sm_90 -o /dev/null '%s' 2>&1", ptxas, tmp);
    int rc = system(cmd);
    snprintf(kept, keptlen, "%s", tmp);
    if (rc == 0)
        remove(tmp);
    return rc == 0;
}

START_TEST(test_every_fixture_entry_instruments_parses_and_assembles)
{
    static const char *const fixtures[] = {
        "atomics.nvcc", "atomics.clang",  "atomics.nvccG",   "devfunc.nvcc",     "devfunc.clang",
        "diverge.nvcc", "diverge.clang",  "hello.nvcc",      "hello.clang",      "intrinsics.nvcc",
        "mat_add.nvcc", "metrics.nvcc",   "metrics.clang",   "printf_all.nvcc",  "races.nvcc",
        "races.clang",  "recursion.nvcc", "reduce.nvcc",     "saxpy.nvcc",       "vec_add.clang",
        "vote.nvcc",    "warp_lock.nvcc", "warp_match.nvcc", "warp_reduce.nvcc", "warp_scan.nvcc",
        "faults.nvcc",  "oob.clang",      "endless.nvcc"};
    const char *ptxas = ptxas_path();
    int assembled = 0, total = 0;
    for (size_t f = 0; f < sizeof fixtures / sizeof *fixtures; f++) {
        char path[256];
        snprintf(path, sizeof path, "tests/fixtures/ptx/%s.ptx", fixtures[f]);
        char *ptx = read_file(path);
        ck_assert_msg(ptx != NULL, "%s", path);
        ptx_module_t *m = NULL;
        char *diag = NULL;
        ck_assert_int_eq(ptx_parse(ptx, strlen(ptx), path, &m, &diag), SIM_OK);
        for (int e = 0; e < ptx_entry_count(m); e++)
            for (int mode = 0; mode < 2; mode++) {
                gl_instrumented ins;
                gl_error err = {0};
                gl_status st = gl_instrument_ptx(ptx, ptx_entry_name(m, e), mode, &ins, &err);
                ck_assert_msg(st == GL_OK, "%s %s: %s", path, ptx_entry_name(m, e), err.msg);
                ptx_module_t *mi = NULL;
                sim_status ps = ptx_parse(ins.ptx, strlen(ins.ptx), "i.ptx", &mi, &diag);
                ck_assert_msg(ps == SIM_OK, "%s %s: %s", path, ptx_entry_name(m, e),
                              diag ? diag : "");
                ptx_param_info pi[70];
                int n0 = 0, n1 = 0;
                ck_assert_int_eq(ptx_entry_params(m, ptx_entry_name(m, e), pi, 70, &n0), SIM_OK);
                ck_assert_int_eq(ptx_entry_params(mi, ptx_entry_name(m, e), pi, 70, &n1), SIM_OK);
                ck_assert_int_eq(n1, n0 + 1);
                ck_assert_uint_eq(pi[n0].size, 8);
                total++;
                if (ptxas && mode == 0) {
                    char kept[64];
                    ck_assert_msg(assembles(ptxas, ins.ptx, kept, sizeof kept),
                                  "ptxas rejects instrumented %s %s (kept in %s)", path,
                                  ptx_entry_name(m, e), kept);
                    assembled++;
                }
                ptx_module_free(mi);
                gl_instrumented_free(&ins);
            }
        ptx_module_free(m);
        free(ptx);
    }
    ck_assert_int_gt(total, 60);
    if (ptxas)
        ck_assert_int_eq(assembled * 2, total);
}
END_TEST

/* Every launch spec of tests/corpus, compiled by the default
 * compiler: where the original kernel runs on the simulator, the instrumented one gives
 * the same buffers and a trace equal to the simulator's (memory requests, metrics). */
START_TEST(test_corpus_instrumented_traces_equal_simulator_traces)
{
    static const char *const dirs[] = {"tests/corpus"};
    int compared = 0, skipped = 0, nondet = 0, assembled = 0;
    const char *ptxas = ptxas_path();
    for (int d = 0; d < (int)(sizeof dirs / sizeof *dirs); d++) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "ls %s/*.json | grep -v golden", dirs[d]);
        FILE *ls = popen(cmd, "r");
        ck_assert_ptr_nonnull(ls);
        char path[512];
        while (fgets(path, sizeof path, ls)) {
            path[strcspn(path, "\n")] = 0;
            gl_spec spec;
            gl_error err = {0};
            if (spec_load_file(path, &spec, &err) != GL_OK) {
                skipped++;
                continue;
            }
            gl_compile_opts co = {0};
            gl_compiled c = {0};
            if (gl_compile_cuda(spec.source, &co, &c, &err) != GL_OK) {
                skipped++;
                spec_free(&spec);
                continue;
            }
            if (strstr(c.ptx, "shared::cluster") || strstr(c.ptx, "mapa") ||
                strstr(c.ptx, "wmma.load") || strstr(c.ptx, "wmma.store")) {
                /* not comparable (instrument.h, Limits): distributed shared memory (the
                 * record holds mapa's address, the simulator's trace the cluster window)
                 * and wmma.load/store (many addresses per lane: not recorded) */
                skipped++;
                gl_compiled_free(&c);
                spec_free(&spec);
                continue;
            }
            int trunc = 0;
            size_t n = compare_spec(path, c.ptx, &spec, 0, &trunc, 1);
            /* what the GPU gets assembles */
            if (ptxas && n != (size_t)-1) {
                gl_instrumented ins;
                ptx_module_t *m = NULL;
                char *diag = NULL;
                ck_assert_int_eq(ptx_parse(c.ptx, strlen(c.ptx), path, &m, &diag), SIM_OK);
                ck_assert_int_eq(gl_instrument_ptx(c.ptx, entry_of(m, spec.kernel), 0, &ins, &err),
                                 GL_OK);
                char kept[64];
                ck_assert_msg(assembles(ptxas, ins.ptx, kept, sizeof kept),
                              "ptxas rejects instrumented %s (kept in %s)", path, kept);
                assembled++;
                gl_instrumented_free(&ins);
                ptx_module_free(m);
            }
            if (n == (size_t)-1)
                skipped++;
            else if (n == (size_t)-2)
                nondet++;
            else
                compared++;
            gl_compiled_free(&c);
            spec_free(&spec);
        }
        pclose(ls);
    }
    fprintf(stderr,
            "corpus: %d launch specs compared exactly, %d schedule-dependent (decoded only), "
            "%d skipped (do not compile or run on the simulator); %d assembled by ptxas\n",
            compared, nondet, skipped, assembled);
    ck_assert_int_ge(compared, 60);
}
END_TEST

/* buffer addresses: two simulator runs of one kernel, the second's buffers moved
 * (every global address of its trace and its dptr shifted by a different amount per
 * buffer, as cudaMalloc places them elsewhere): raw, the traces differ; as (argument,
 * offset) they are equal, no address is left unmapped, and an address just past a
 * buffer stays raw. */
static const char *const norm_specs[] = {"tests/corpus/vec_add.json", "tests/corpus/reduce.json"};

START_TEST(test_traces_with_moved_buffers_compare_equal_as_argument_and_offset)
{
    const char *path = norm_specs[_i];
    gl_spec spec;
    gl_error err = {0};
    ck_assert_msg(spec_load_file(path, &spec, &err) == GL_OK, "%s", err.msg);
    gl_compile_opts co = {0};
    gl_compiled c = {0};
    ck_assert_msg(gl_compile_cuda(spec.source, &co, &c, &err) == GL_OK, "%s", err.msg);
    gl_run_opts so = {.backend = GL_BACKEND_SIM, .trace_level = TRACE_MEMORY};
    gl_run_result a, b;
    ck_assert_msg(gl_run_ptx(&spec, c.ptx, &so, &a, &err) == GL_OK, "%s", err.msg);
    ck_assert_msg(gl_run_ptx(&spec, c.ptx, &so, &b, &err) == GL_OK, "%s", err.msg);
    ck_assert_ptr_nonnull(a.dptr);
    ck_assert_ptr_nonnull(a.trace);
    int nptr = 0;
    for (int i = 0; i < spec.nargs; i++) {
        ck_assert_msg((a.dptr[i] != 0) == spec.args[i].is_ptr, "%s: arg %d dptr %llx", path, i,
                      (unsigned long long)a.dptr[i]);
        ck_assert_uint_eq(a.dptr[i], b.dptr[i]); /* the simulator places them alike */
        nptr += spec.args[i].is_ptr;
    }
    ck_assert_int_ge(nptr, 2);
    /* move b's buffers: 0x7fe7abe00000-like bases, a different shift for each */
    uint64_t shift[64] = {0};
    for (int i = 0; i < spec.nargs && i < 64; i++)
        shift[i] = 0xfe7abe00000ull + (uint64_t)i * 0x10200;
    size_t moved = 0;
    for (size_t k = 0; k < b.trace->nevents; k++) {
        const trace_event *e = &b.trace->events[k];
        if (e->kind != TRACE_EV_MEM || e->space != TRACE_SPACE_GLOBAL)
            continue;
        uint64_t *ad = b.trace->addrs + (size_t)e->aux * 32;
        for (int l = 0; l < 32; l++) {
            if (!(e->mask >> l & 1))
                continue;
            uint64_t t = norm_addr(&b, ad[l]);
            ck_assert_msg(t & NORM_TAG, "%s: address %llx in no buffer", path,
                          (unsigned long long)ad[l]);
            ad[l] += shift[(t >> 40) & 0xffff];
            moved++;
        }
    }
    ck_assert_uint_gt(moved, 0);
    for (int i = 0; i < spec.nargs; i++)
        if (b.dptr[i])
            b.dptr[i] += shift[i];
    size_t na = 0, nb = 0;
    norm_res = NULL;
    req *ra = requests(a.trace, &na), *rb = requests(b.trace, &nb);
    ck_assert_uint_eq(na, nb);
    ck_assert_uint_gt(na, 0);
    int differ = 0;
    for (size_t i = 0; i < na; i++)
        differ += req_cmp(&ra[i], &rb[i]) != 0;
    ck_assert_msg(differ > 0, "%s: moving the buffers changed no raw address", path);
    free(ra);
    free(rb);
    norm_unmapped = 0;
    norm_res = &a;
    ra = requests(a.trace, &na);
    norm_res = &b;
    rb = requests(b.trace, &nb);
    ck_assert_uint_eq(norm_unmapped, 0);
    ck_assert_uint_eq(na, nb);
    for (size_t i = 0; i < na; i++) {
        char sa[64], sb[64];
        ck_assert_msg(req_cmp(&ra[i], &rb[i]) == 0, "%s: request %zu: a0 %s / moved a0 %s", path, i,
                      addr_str(ra[i].a[0], sa, sizeof sa), addr_str(rb[i].a[0], sb, sizeof sb));
    }
    /* an address in no buffer stays raw and says so */
    int p0 = 0;
    while (!spec.args[p0].is_ptr)
        p0++;
    uint64_t past = b.dptr[p0] + b.buffers[p0].bytes + 0x100000000ull;
    char s[64];
    ck_assert_uint_eq(norm_addr(&b, past), past);
    ck_assert_msg(strstr(addr_str(past, s, sizeof s), "in no buffer"), "%s", s);
    ck_assert_uint_eq(norm_addr(&b, b.dptr[p0] + 4), NORM_TAG | (uint64_t)p0 << 40 | 4);
    char want[64];
    snprintf(want, sizeof want, "arg %d + 0x4", p0);
    ck_assert_str_eq(addr_str(NORM_TAG | (uint64_t)p0 << 40 | 4, s, sizeof s), want);
    norm_res = NULL;
    free(ra);
    free(rb);
    gl_run_result_free(&a);
    gl_run_result_free(&b);
    gl_compiled_free(&c);
    spec_free(&spec);
}
END_TEST

/* ------------------------------------------------------------ GPU back end */

static char tmp_root[256]; /* this program's temporary folder (cache, fake driver) */
static char fake_lib[400]; /* tests/gpu/fake_libcuda.c built, "" if it could not be */

/* The GPU path of gl_run_ptx with a trace: the fake driver (tests/gpu/fake_libcuda.c)
 * runs nothing, so the trace buffer comes back as the worker initialised it and
 * decodes to an empty, complete trace; metrics come with it. */
START_TEST(test_fake_driver_gpu_trace_travels_back_from_the_worker)
{
    if (!fake_lib[0]) {
        printf("SKIP: fake driver not built (no cc or no cuda.h)\n");
        return;
    }
    setenv("GPULEARN_LIBCUDA", fake_lib, 1);
    setenv("FAKE_CUDA", "ok", 1);
    unsetenv("GPULEARN_NO_GPU");
    char *ptx = read_file("tests/fixtures/ptx/vec_add.nvcc.ptx");
    ck_assert_ptr_nonnull(ptx);
    cJSON *j = cJSON_Parse(vec_add_json);
    gl_spec spec;
    gl_error err = {0};
    ck_assert_int_eq(spec_from_json(j, "spec.json", "tests", NULL, &spec, &err), GL_OK);
    cJSON_Delete(j);
    gl_run_opts opts = {.backend = GL_BACKEND_GPU,
                        .trace_level = TRACE_MEMORY,
                        .metrics = 1,
                        .gpu_trace = 1,
                        .gpu_trace_records = 1000};
    gl_run_result r;
    gl_status st = gl_run_ptx(&spec, ptx, &opts, &r, &err);
    if (st != GL_OK && strstr(err.msg, "built without cuda.h")) {
        printf("SKIP: gpulearn built without cuda.h\n");
    } else {
        ck_assert_msg(st == GL_OK, "%s", err.msg);
        ck_assert_int_eq(r.backend, GL_BACKEND_GPU);
        ck_assert_msg(r.trace != NULL, "note: %s", r.note);
        ck_assert_uint_eq(r.trace->nevents, 0);
        ck_assert_int_eq(r.trace->truncated, 0);
        ck_assert_int_gt(r.trace->ninsns, 0); /* the original module's instruction table */
        ck_assert_ptr_nonnull(r.metrics);
        /* buffer addresses: the worker's allocations (the fake driver's mallocs) came
         * back, one per pointer argument, 0 for scalars, all different */
        ck_assert_ptr_nonnull(r.dptr);
        for (int i = 0; i < spec.nargs; i++) {
            ck_assert_msg((r.dptr[i] != 0) == spec.args[i].is_ptr, "arg %d dptr %llx", i,
                          (unsigned long long)r.dptr[i]);
            for (int k = 0; k < i; k++)
                ck_assert(!r.dptr[i] || r.dptr[i] != r.dptr[k]);
        }
        /* without gpu_trace a GPU run carries no trace, as before */
        gl_run_result_free(&r);
        opts.gpu_trace = 0;
        ck_assert_int_eq(gl_run_ptx(&spec, ptx, &opts, &r, &err), GL_OK);
        ck_assert_ptr_null(r.trace);
    }
    gl_run_result_free(&r);
    spec_free(&spec);
    free(ptx);
    unsetenv("GPULEARN_LIBCUDA");
    unsetenv("FAKE_CUDA");
}
END_TEST

/* Deterministic kernels whose GPU trace must equal the simulator's. */
static const char *const gpu_specs[] = {
    "tests/corpus/vec_add.json",
    "tests/corpus/saxpy.json",
    "tests/corpus/mat_add.json",
    "tests/corpus/reduce.json",
    "tests/kernels/check/copy_strided.json",
    "tests/kernels/check/tile_column.json",
    "tests/corpus/dyn_shared.json",
    "tests/corpus/idx3d.json",
    "tests/corpus/ldg_restrict.json",
    "tests/corpus/local_array.json",
    /* cp.async (a global read and a shared write per warp instruction, PTX ISA
     * §9.7.9.25.3) and ldmatrix (a 16-byte row per lane address, §9.7.14.5.15) */
    "tests/corpus/cp_async_cg16.json",
    "tests/corpus/cp_async_ca4.json",
    "tests/corpus/cp_async_zfill.json",
    "tests/kernels/ops/traffic.json",
    "tests/kernels/ops/ldmatrix.json",
};

/* On a real GPU: the trace of the instrumented kernel equals the simulator's trace of
 * the original (memory requests as multisets, block events, metrics). SKIP without. */
START_TEST(test_real_gpu_trace_equals_simulator_trace_on_deterministic_kernels)
{
    unsetenv("GPULEARN_LIBCUDA");
    unsetenv("GPULEARN_NO_GPU");
    const char *path = gpu_specs[_i];
    gl_spec spec;
    gl_error err = {0};
    if (spec_load_file(path, &spec, &err) != GL_OK) {
        printf("SKIP: %s: %s\n", path, err.msg);
        return;
    }
    gl_compile_opts co = {0};
    gl_compiled c = {0};
    ck_assert_msg(gl_compile_cuda(spec.source, &co, &c, &err) == GL_OK, "%s", err.msg);
    gl_run_opts go = {
        .backend = GL_BACKEND_GPU, .trace_level = TRACE_MEMORY, .metrics = 1, .gpu_trace = 1};
    gl_run_result g;
    gl_status st = gl_run_ptx(&spec, c.ptx, &go, &g, &err);
    if (st == GL_ERR_NODEVICE || (st != GL_OK && g.backend == GL_BACKEND_GPU &&
                                  g.fault.kind != GL_FAULT_GPU && strstr(err.msg, "driver"))) {
        printf("SKIP: no GPU (%s)\n", err.msg);
        gl_run_result_free(&g);
        gl_compiled_free(&c);
        spec_free(&spec);
        return;
    }
    ck_assert_msg(st == GL_OK, "%s: %s", path, err.msg);
    ck_assert_msg(g.trace != NULL, "%s: no GPU trace: %s", path, g.note);
    gl_run_opts so = {.backend = GL_BACKEND_SIM, .trace_level = TRACE_MEMORY, .metrics = 1};
    gl_run_result r;
    if (gl_run_ptx(&spec, c.ptx, &so, &r, &err) != GL_OK) {
        printf("SKIP: %s does not run on the simulator: %s\n", path, err.msg);
        gl_run_result_free(&r);
        gl_run_result_free(&g);
        gl_compiled_free(&c);
        spec_free(&spec);
        return;
    }
    for (int i = 0; i < spec.nargs; i++)
        if (spec.args[i].is_ptr)
            ck_assert_msg(memcmp(g.buffers[i].data, r.buffers[i].data, g.buffers[i].bytes) == 0,
                          "%s: buffer %s differs between GPU and simulator", path,
                          spec.args[i].name);
    /* the instrumented PCs (the entry and the module's functions) */
    ptx_module_t *m = NULL;
    char *diag = NULL;
    ck_assert_int_eq(ptx_parse(c.ptx, strlen(c.ptx), path, &m, &diag), SIM_OK);
    gl_instrumented ins;
    ck_assert_int_eq(gl_instrument_ptx(c.ptx, entry_of(m, spec.kernel), 0, &ins, &err), GL_OK);
    pc_first = ins.pc_first;
    pc_last = ins.pc_last;
    ignore_local_addrs = 1;
    unsigned nb = spec.grid[0] * spec.grid[1] * spec.grid[2];
    ck_assert_int_eq(g.trace->truncated, 0);
    ck_assert_uint_eq(count_kind(g.trace, TRACE_EV_BLOCK_START), nb);
    ck_assert_uint_eq(count_kind(g.trace, TRACE_EV_BLOCK_END), nb);
    /* buffer addresses: global addresses as (argument, offset) in both traces */
    ck_assert_msg(g.dptr && r.dptr, "%s: no buffer addresses (gpu %p sim %p)", path, (void *)g.dptr,
                  (void *)r.dptr);
    size_t na = 0, nbq = 0;
    norm_res = &r;
    req *ra = requests(r.trace, &na);
    norm_res = &g;
    req *rb = requests(g.trace, &nbq);
    ck_assert_msg(nbq == na, "%s: GPU %zu requests, simulator %zu", path, nbq, na);
    for (size_t i = 0; i < na; i++) {
        if (req_cmp(&ra[i], &rb[i]) == 0)
            continue;
        int l = 0; /* the first lane that differs */
        while (l < 31 && ra[i].a[l] == rb[i].a[l])
            l++;
        char sa[64], sb[64];
        ck_abort_msg("%s: request %zu: sim block %u warp %u pc %d mask %08x a%d %s / gpu "
                     "block %u warp %u pc %d mask %08x a%d %s",
                     path, i, ra[i].block, ra[i].warp, ra[i].pc, ra[i].mask, l,
                     addr_str(ra[i].a[l], sa, sizeof sa), rb[i].block, rb[i].warp, rb[i].pc,
                     rb[i].mask, l, addr_str(rb[i].a[l], sb, sizeof sb));
    }
    norm_res = NULL;
    const gl_counts *x = &r.metrics->total, *y = &g.metrics->total;
#define SAME(f)                                                                                    \
    ck_assert_msg(x->f == y->f, "%s: " #f " sim %llu gpu %llu", path, (unsigned long long)x->f,    \
                  (unsigned long long)y->f)
    {
        size_t all = 0;
        pc_first = 0;
        pc_last = 1 << 30;
        free(requests(r.trace, &all));
        if (all == na) {
            SAME(gld_requests);
            SAME(gld_sectors);
            SAME(gst_requests);
            SAME(gst_sectors);
            SAME(shld_requests);
            SAME(shld_wavefronts);
            SAME(shld_bank_conflicts);
            SAME(shst_requests);
            SAME(shst_wavefronts);
            SAME(shst_bank_conflicts);
            SAME(global_atom_requests);
            SAME(shared_atom_requests);
            SAME(ldgsts_requests);
            SAME(ldgsts_sectors);
            SAME(ldgsts_bytes);
            SAME(ldgsts_wavefronts);
            SAME(ldgsts_bank_conflicts);
            SAME(ldsm_requests);
            SAME(ldsm_wavefronts);
            SAME(ldsm_bank_conflicts);
        }
    }
#undef SAME
    ignore_local_addrs = 0;
    /* Perfetto: one slice per block on its SM */
    char *text = NULL;
    size_t len = 0;
    FILE *mf = open_memstream(&text, &len);
    ck_assert_int_eq(gl_perfetto_write(mf, g.trace, NULL), GL_PERFETTO_OK);
    fclose(mf);
    cJSON *j = cJSON_Parse(text);
    ck_assert_msg(j != NULL, "%s: Perfetto JSON does not parse", path);
    unsigned slices = 0;
    const cJSON *ev;
    cJSON_ArrayForEach(ev, cJSON_GetObjectItemCaseSensitive(j, "traceEvents"))
    {
        const cJSON *cat = cJSON_GetObjectItemCaseSensitive(ev, "cat");
        slices += cJSON_IsString(cat) && strcmp(cat->valuestring, "block") == 0;
    }
    ck_assert_uint_eq(slices, nb);
    cJSON_Delete(j);
    free(text);
    printf("%s: GPU trace equals the simulator's: %zu memory requests, %u blocks\n", path, na, nb);
    free(ra);
    free(rb);
    ptx_module_free(m);
    gl_instrumented_free(&ins);
    gl_run_result_free(&g);
    gl_run_result_free(&r);
    gl_compiled_free(&c);
    spec_free(&spec);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("instrument");
    TCase *tc = tcase_create("sim");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_vec_add_instrumented_trace_equals_simulator_trace, 0, 2);
    tcase_add_loop_test(tc, test_mat_add_2d_blocks_instrumented_trace_equals_simulator_trace, 0, 2);
    tcase_add_loop_test(tc, test_reduce_shared_and_atomic_instrumented_trace_equals_simulator_trace,
                        0, 2);
    tcase_add_loop_test(tc, test_metrics_kernels_strided_and_bank_conflicts_agree, 0, 2);
    tcase_add_test(tc, test_small_capacity_marks_the_trace_truncated);
    tcase_add_test(tc, test_a_trace_cap_loses_no_record);
    tcase_add_test(tc, test_every_fixture_entry_instruments_parses_and_assembles);
    tcase_add_test(tc, test_perfetto_of_a_gpu_trace_shows_blocks_on_sms);
    tcase_add_loop_test(tc, test_gpu_shared_layout_is_translated_to_the_simulators, 0, 2);
    tcase_add_loop_test(tc, test_gpu_mode_instrumentation_gives_the_same_trace_on_the_simulator, 0,
                        2);
    tcase_add_loop_test(tc, test_traces_with_moved_buffers_compare_equal_as_argument_and_offset, 0,
                        (int)(sizeof norm_specs / sizeof *norm_specs));
    TCase *tg = tcase_create("gpu");
    tcase_set_timeout(tg, 120);
    tcase_add_test(tg, test_fake_driver_gpu_trace_travels_back_from_the_worker);
    tcase_add_loop_test(tg, test_real_gpu_trace_equals_simulator_trace_on_deterministic_kernels, 0,
                        (int)(sizeof gpu_specs / sizeof *gpu_specs));
    suite_add_tcase(s, tg);
    TCase *tcc = tcase_create("corpus");
    tcase_set_timeout(tcc, 600);
    tcase_add_test(tcc, test_corpus_instrumented_traces_equal_simulator_traces);
    suite_add_tcase(s, tcc);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(tmp_root, sizeof tmp_root, "%s/gpulearn-test-instrument-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(tmp_root)) {
        perror("mkdtemp");
        return 1;
    }
    setenv("XDG_CACHE_HOME", tmp_root, 1); /* never the user's ~/.cache */
    const char *home = getenv("CUDA_HOME");
    char cmd[1200];
    snprintf(fake_lib, sizeof fake_lib, "%s/libcuda-fake.so", tmp_root);
    snprintf(cmd, sizeof cmd,
             "cc -shared -fPIC -O1 -isystem '%s/include' tests/gpu/fake_libcuda.c -o '%s' "
             ">/dev/null 2>&1",
             home && *home ? home : "/usr/local/cuda", fake_lib);
    if (system(cmd) != 0)
        fake_lib[0] = '\0';
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_root);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp_root);
    return failed ? 1 : 0;
}
