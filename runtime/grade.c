/* grade.c — grading an exercise against its hidden reference (see grade.h). */
#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "runtime/grade.h"
#include "runtime/arch.h"
#include "runtime/pool.h"
#include "runtime/sandbox.h"
#include "runtime/wire.h"
#include "sim/sim.h"
#include "trace/analysis.h"

void grade_report_free(gl_grade_report *r)
{
    if (!r)
        return;
    free(r->compile_log);
    free(r->diags);
    free(r->checks);
    memset(r, 0, sizeof *r);
}

/* One run of a kernel on the simulator, as the grader needs it: buffers, the fault,
 * the checkers' findings and the trace's counters. */
typedef struct sim_run {
    gl_status status;   /* GL_OK, GL_ERR_FAULT, GL_ERR_UNSUPPORTED, ... */
    char error[4096];   /* what went wrong, with where */
    gl_buffer *buffers; /* one per arg */
    int nargs;
    gl_fault fault;
    gl_finding *findings; /* errors and warnings (malloc'd) */
    int nfindings;
    gl_stats stats;
    gl_counts counts;         /* trace counters (when traced) */
    uint64_t block_write_max; /* the most bytes one block wrote to global memory (when
                                 traced; gl_metrics.block_write_max) */
    int traced;
    gl_occupancy occupancy; /* of the launch on the graded device profile */
} sim_run;

static void sim_run_free(sim_run *r)
{
    spec_buffers_free(r->buffers, r->nargs);
    free(r->findings);
    memset(r, 0, sizeof *r);
}

/* One size's runs: the reference's and the submission's, on the simulator. */
typedef struct size_run {
    int64_t n;
    gl_inputs inputs; /* the lesson's random inputs, or an adversarial variant */
    char label[320];  /* "4099", "4099 with every input the largest allowed", or a declared
                         set: "4099 with keys across the whole range of u32 (...)" */
    gl_spec spec;     /* the submission's spec at this n */
    sim_run expect;   /* reference */
    sim_run got;      /* submission, deterministic schedule */
    sim_run dbg;      /* the submission's debug build (-G), deterministic schedule:
                              the memory checks see the code as written */
    int have_dbg;
    sim_run *sched; /* submission under seeded random schedules (nsched) */
    int nsched;
    int skipped; /* not run: a smaller size already hit the step limit */
    int on_gpu;  /* --backend gpu: the submission also ran on the GPU */
    gl_run_result got_gpu;
    gl_status gpu_status;
    char gpu_error[4096];
} size_run;

void grade_add_detail(gl_check_result *c, const char *fmt, ...)
{
    size_t used = strlen(c->detail);
    if (used + 1 >= sizeof c->detail)
        return;
    if (used)
        c->detail[used++] = '\n', c->detail[used] = '\0';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->detail + used, sizeof c->detail - used, fmt, ap);
    va_end(ap);
}

void grade_format_value(char *buf, size_t len, gl_type t, gl_value v)
{
    if (t == GL_F32 || t == GL_F64)
        snprintf(buf, len, "%.9g", v.f);
    else if (spec_type_is_signed(t))
        snprintf(buf, len, "%lld", (long long)v.i);
    else
        snprintf(buf, len, "%llu", (unsigned long long)v.u);
}

int grade_values_equal(gl_type t, gl_value expected, gl_value actual, double tol)
{
    gl_value a = expected, b = actual;
    if (t == GL_F32 || t == GL_F64) {
        if (isnan(a.f) || isnan(b.f))
            return isnan(a.f) && isnan(b.f);
        if (tol == 0)
            return a.f == b.f && signbit(a.f) == signbit(b.f);
        return fabs(a.f - b.f) <= tol;
    }
    return a.u == b.u;
}

int grade_is_output(const gl_check *k, const char *name)
{
    if (!k || !k->outputs)
        return 1;
    for (int i = 0; i < k->noutputs; i++)
        if (strcmp(k->outputs[i], name) == 0)
            return 1;
    return 0;
}

static int uses_size(const gl_check *k, const gl_exercise *e, int64_t n)
{
    const int64_t *s = k->sizes ? k->sizes : e->sizes;
    int count = k->sizes ? k->nsizes : e->nsizes;
    for (int i = 0; i < count; i++)
        if (s[i] == n)
            return 1;
    return 0;
}

size_t grade_count_diffs(gl_type t, size_t len, const void *expected, const void *actual,
                         double tol, size_t *first)
{
    size_t wrong = 0;
    if (first)
        *first = len;
    for (size_t i = 0; i < len; i++)
        if (!grade_values_equal(t, spec_buffer_get(expected, t, i), spec_buffer_get(actual, t, i),
                                tol)) {
            if (first && wrong == 0)
                *first = i;
            wrong++;
        }
    return wrong;
}

const gl_check *grade_reference_check(const gl_exercise *e, int64_t n)
{
    const gl_check *any = NULL;
    for (int i = 0; i < e->nchecks; i++) {
        const gl_check *k = &e->checks[i];
        if (k->kind != GL_CHECK_MATCHES_REFERENCE)
            continue;
        if (uses_size(k, e, n))
            return k;
        if (!any)
            any = k;
    }
    return any;
}

/* ------------------------------------------------------------ running on the simulator */

/* Runs spec on the simulator with module m (already parsed) through gl_run_sim, with
 * opts' limits, schedule and metrics (opts->metrics: r->counts and r->block_write_max,
 * r->traced). The result is always initialised; r->status says how the kernel ended.
 * Returns GL_OK unless the run could not be set up (then err says why: a spec that does
 * not fit the kernel). */
static gl_status grade_sim(const gl_spec *spec, const ptx_module_t *m, const gl_run_opts *opts,
                           sim_run *r, gl_error *err)
{
    memset(r, 0, sizeof *r);
    const char *kernel = gl_run_resolve_kernel(m, spec->kernel);
    if (!kernel)
        return gl_fail(err, GL_ERR_INPUT, "%s: there is no kernel named '%s' (did you rename it?)",
                       gl_display_path(spec->source), spec->kernel);
    gl_param_fit fit;
    if (!gl_run_params_fit(spec, m, kernel, &fit)) {
        if (fit.nparams != spec->nargs)
            return gl_fail(err, GL_ERR_INPUT,
                           "%s: kernel '%s' takes %d parameters; the "
                           "exercise passes %d (keep the starter's parameter list)",
                           gl_display_path(spec->source), spec->kernel, fit.nparams, spec->nargs);
        const gl_arg *a = &spec->args[fit.bad_arg];
        return gl_fail(err, GL_ERR_INPUT,
                       "%s: parameter %d of '%s' has the wrong type "
                       "(the exercise passes %s%s '%s')",
                       gl_display_path(spec->source), fit.bad_arg, spec->kernel,
                       spec_type_name(a->type), a->is_ptr ? "*" : "", a->name);
    }
    gl_run_result res = {0};
    gl_status st = spec_buffers_sized(spec, &res.buffers, err);
    if (st != GL_OK)
        return st;
    res.nargs = spec->nargs;
    gl_error rerr = {0};
    r->status = gl_run_sim(spec, m, kernel, opts, &res, &rerr);
    if (r->status == GL_ERR_FAULT || r->status == GL_ERR_UNSUPPORTED)
        snprintf(r->error, sizeof r->error, "%s", rerr.msg);
    else if (r->status != GL_OK)
        snprintf(r->error, sizeof r->error, "%s: the launch failed: %s",
                 gl_display_path(spec->source), res.fault.message);
    r->buffers = res.buffers;
    r->nargs = res.nargs;
    r->fault = res.fault;
    r->stats = res.stats;
    r->occupancy = res.occupancy;
    r->findings = res.findings;
    r->nfindings = res.nfindings;
    res.buffers = NULL;
    res.findings = NULL;
    res.nfindings = 0;
    if (res.metrics && !res.metrics->incomplete) {
        r->counts = res.metrics->total;
        r->block_write_max = res.metrics->block_write_max;
        r->traced = 1;
    }
    gl_run_result_free(&res);
    return GL_OK;
}

/* ------------------------------------------------------------------------- checks */

/* Compares the submission's outputs with the reference's at one size. */
static int compare_outputs(const gl_check *k, const size_run *r, const gl_buffer *got,
                           const char *where, gl_check_result *c)
{
    int ok = 1;
    for (int a = 0; a < r->spec.nargs; a++) {
        const gl_arg *arg = &r->spec.args[a];
        if (!arg->is_ptr || !grade_is_output(k, arg->name))
            continue;
        size_t first;
        size_t wrong = grade_count_diffs(arg->type, arg->len, r->expect.buffers[a].data,
                                         got[a].data, k->tolerance, &first);
        if (wrong) {
            char w[64], g[64];
            grade_format_value(w, sizeof w, arg->type,
                               spec_buffer_get(r->expect.buffers[a].data, arg->type, first));
            grade_format_value(g, sizeof g, arg->type,
                               spec_buffer_get(got[a].data, arg->type, first));
            grade_add_detail(c, "n = %s%s: %s[%zu] is %s, expected %s (%zu of %zu elements differ)",
                             r->label, where, arg->name, first, g, w, wrong, arg->len);
            ok = 0;
        }
    }
    return ok;
}

/* Whether the outputs check k compares differ between two runs of one size. */
static int outputs_differ(const gl_check *k, const size_run *r, const gl_buffer *a,
                          const gl_buffer *b)
{
    for (int i = 0; i < r->spec.nargs; i++) {
        const gl_arg *arg = &r->spec.args[i];
        if (arg->is_ptr && grade_is_output(k, arg->name) && a[i].data && b[i].data &&
            grade_count_diffs(arg->type, arg->len, a[i].data, b[i].data, k->tolerance, NULL))
            return 1;
    }
    return 0;
}

static int is_memory_fault(const gl_fault *f)
{
    return f->kind == GL_FAULT_OUT_OF_BOUNDS || f->kind == GL_FAULT_MISALIGNED;
}

/* Whether finding f is of `kind`: GL_FIND_RACE also matches races inside one warp and
 * in global memory, GL_FIND_DIVERGENT_BARRIER a barrier that exited threads skipped. */
static int finding_is(const gl_finding *f, gl_finding_kind kind)
{
    return f->kind == kind ||
           (kind == GL_FIND_RACE &&
            (f->kind == GL_FIND_WARP_RACE || f->kind == GL_FIND_GLOBAL_RACE)) ||
           (kind == GL_FIND_DIVERGENT_BARRIER && f->kind == GL_FIND_EXITED_BARRIER);
}

/* Which threads a race is between, widest last: the barrier whose absence it shows is
 * __syncwarp() for two lanes of one warp, __syncthreads() for two warps of one block,
 * the cp.async's wait for a copy read before it landed, a cluster barrier for two blocks
 * of a cluster (distributed shared memory), and none at all for two blocks of the grid. */
typedef enum race_scope {
    RACE_NONE,
    RACE_WARP,
    RACE_BLOCK,
    RACE_ASYNC,
    RACE_CLUSTER,
    RACE_GRID,
} race_scope;

static race_scope race_scope_of(const gl_finding *f)
{
    if (!finding_is(f, GL_FIND_RACE))
        return RACE_NONE;
    if (f->other_async)
        return RACE_ASYNC;
    if (memcmp(f->access.block, f->other.block, sizeof f->access.block) != 0)
        return f->space == GL_SPACE_SHARED ? RACE_CLUSTER : RACE_GRID;
    return f->kind == GL_FIND_WARP_RACE || f->access.warp == f->other.warp ? RACE_WARP : RACE_BLOCK;
}

/* The finding of `kind` a report shows for run r: the first, except that of races the
 * first of the widest scope (race_scope), the one whose barrier the advice names; NULL
 * if there is none. */
static const gl_finding *shown_finding(const sim_run *r, gl_finding_kind kind)
{
    const gl_finding *best = NULL;
    for (int i = 0; i < r->nfindings; i++) {
        const gl_finding *f = &r->findings[i];
        if (finding_is(f, kind) && (!best || race_scope_of(f) > race_scope_of(best)))
            best = f;
    }
    return best;
}

/* The shown finding of `kind` in run r (shown_finding): its message, which names the
 * threads and source lines involved, into buf; 0 if there is none. */
static int describe_finding(const sim_run *r, gl_finding_kind kind, char *buf, size_t len)
{
    const gl_finding *f = shown_finding(r, kind);
    if (!f)
        return 0;
    int more = 0;
    for (int j = 0; j < r->nfindings; j++)
        more += &r->findings[j] != f && finding_is(&r->findings[j], kind);
    snprintf(buf, len, "%s%s", f->message, more ? " (and more like it)" : "");
    return 1;
}

/* The multiply-adds of run r's tensor-core instructions (M x N x K each) and of its
 * scalar floating-point work (its FLOPs / 2: an fma is one, an add or a mul half). */
static void product_work(const gl_counts *c, double *tensor, double *scalar)
{
    double t = 0;
    for (int k = TRACE_FLOP_TENSOR_F16; k < TRACE_FLOP_COUNT; k++)
        t += (double)gl_flops(c, k);
    *tensor = t / 2;
    *scalar = (double)(c->flops_fp32 + c->flops_fp64 + c->flops_fp16 + c->flops_bf16) / 2;
}

/* tensor_core_share at run r, in percent: of the product's P multiply-adds (the check's
 * "product" at r->n), those the tensor cores did, min(T, P - S) with T the tensor-core
 * multiply-adds and S the scalar floating-point ones: mma on zero fragments beside a
 * product computed with fma counts nothing, an epilogue's O(M N) scaling little. */
static double tensor_share(const gl_check *k, const size_run *r)
{
    const double p = (double)lesson_check_product(k, r->n);
    double t, sc;
    product_work(&r->got.counts, &t, &sc);
    const double done = t < p - sc ? t : p - sc;
    return p > 0 && done > 0 ? 100 * done / p : 0;
}

/* Value of a metric check at one run, and what it measures (for messages). */
static double metric_value(const gl_check *k, const gl_check *outputs_from, const size_run *r,
                           const char **what)
{
    const gl_counts *c = &r->got.counts;
    const char *m = k->metric;
    if (strcmp(m, "branch_efficiency") == 0) {
        *what = "branch efficiency (the share of warp branches at which all lanes went the "
                "same way)";
        return gl_branch_efficiency(c);
    }
    if (strcmp(m, "warp_execution_efficiency") == 0) {
        *what = "warp execution efficiency (average active lanes per warp instruction / 32)";
        return gl_warp_execution_efficiency(c);
    }
    if (strcmp(m, "sectors_per_request") == 0) {
        *what = "global memory sectors per request (loads, stores and cp.async reads)";
        return gl_global_sectors_per_request(c);
    }
    if (strcmp(m, "sector_efficiency") == 0) {
        *what = "global memory sector efficiency (% of the bytes of the 32-byte sectors "
                "fetched that the lanes asked for)";
        return gl_global_sector_efficiency(c);
    }
    if (strcmp(m, "bank_conflicts") == 0) {
        *what = "shared-memory bank conflicts (extra wavefronts)";
        return (double)gl_shared_bank_conflicts(c);
    }
    if (strcmp(m, "global_atomics") == 0) {
        *what = "global atomic operations (one per thread that performs one)";
        return (double)c->global_atom_threads;
    }
    if (strcmp(m, "float_additions") == 0) {
        *what = "floating-point additions performed (per lane, every float add/sub, fma/mad "
                "and atomic add: the algorithm's additions, without index arithmetic)";
        return (double)c->float_additions;
    }
    if (strcmp(m, "additions") == 0) {
        *what = "additions performed (per lane, every add/sub, fma/mad and atomic add of "
                "any type, index arithmetic included)";
        return (double)c->additions;
    }
    if (strcmp(m, "theoretical_occupancy") == 0) {
        /* Nsight Compute's sm__maxwarps_per_active_cycle_pct ("Theoretical Occupancy"),
         * from the device profile's limits and the registers per thread ptxas counts for
         * the graded target (an upper bound without them: run_check) */
        *what = "theoretical occupancy (% of the SM's warp slots the resident blocks fill: "
                "threads, blocks, shared memory and registers per SM of the graded device)";
        return r->got.occupancy.valid ? 100 * r->got.occupancy.theoretical : 0;
    }
    if (strcmp(m, "global_load_bytes_per_flop") == 0) {
        /* l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum plus _op_ldgsts and cp.async.bulk's
         * reads (32 bytes per sector requested, before any cache hit) over the launch's
         * declared "flops" */
        *what = "bytes of global loads per floating-point operation (32-byte sectors "
                "the load and cp.async requests touched x 32 / the launch's flops)";
        return r->spec.flops > 0
                   ? (double)(c->gld_sectors + c->ldgsts_sectors + c->bulk_ld_sectors) * 32 /
                         r->spec.flops
                   : 0;
    }
    if (strcmp(m, "tensor_instructions") == 0) {
        *what = "tensor-core instructions (warp-level mma / wmma.mma)";
        return (double)c->tensor_insts;
    }
    if (strcmp(m, "tensor_core_share") == 0) {
        *what = "share of the product's multiply-adds done on the tensor cores, in % "
                "(the M x N x K of the mma instructions, at most the product's less the "
                "multiply-adds done on scalar floating-point units)";
        return tensor_share(k, r);
    }
    if (strcmp(m, "work_distribution") == 0) {
        /* the reference's largest block is a full tile whatever the size: edge tiles
         * write less in both */
        *what = "the most output any one block writes, relative to the reference's "
                "largest block (global bytes stored: 1 = each block its own tile)";
        return r->expect.block_write_max
                   ? (double)r->got.block_write_max / (double)r->expect.block_write_max
                   : 0;
    }
    if (strcmp(m, "pipeline_overlap") == 0) {
        *what = "cp.async waits for copies that stayed in flight while the warp computed "
                "(warp-level waits at which a group lands that was committed before the warp "
                "read shared memory)";
        return (double)c->async_waits_overlapped;
    }
    /* global_loads_per_output: bytes, so that an int4 load or a 16-byte cp.async weighs
     * as the four loads it replaces */
    *what = "global loads per output element (bytes read from global memory by ld, "
            "cp.async and bulk copies / the output elements' bytes)";
    double out_bytes = 0;
    const gl_check *ok = k->outputs ? k : outputs_from;
    for (int a = 0; a < r->spec.nargs; a++)
        if (r->spec.args[a].is_ptr && (!ok || grade_is_output(ok, r->spec.args[a].name)))
            out_bytes += (double)r->spec.args[a].len * (double)spec_type_size(r->spec.args[a].type);
    return out_bytes > 0 ? (double)gl_global_load_bytes(c) / out_bytes : 0;
}

/* Sizes whose failure is described in full; the rest are only counted. */
#define GRADE_DETAILED_SIZES 3

static const char *k_metric_advice[][2] = {
    {"branch_efficiency", "Lanes of a warp that take different sides of a branch run one "
                          "side after the other. Make the condition the same for all 32 "
                          "lanes of a warp (it may differ between warps)."},
    {"warp_execution_efficiency", "Lanes of a warp that take different sides of a branch "
                                  "run one side after the other, and lanes that have no work "
                                  "idle. Keep the condition the same for all 32 lanes of a warp "
                                  "and give every lane work."},
    {"sectors_per_request", "Consecutive lanes should touch consecutive addresses: a warp "
                            "reading 32 consecutive floats needs 4 sectors of 32 bytes."},
    {"sector_efficiency", "Every 32-byte sector a warp fetches should be used whole: "
                          "consecutive lanes touching consecutive elements (or each lane a "
                          "float4 of consecutive floats) use all of it."},
    {"bank_conflicts", "Lanes of a warp that touch different words in the same bank (word "
                       "index mod 32) are served one after the other: a column of a [32][32] "
                       "tile, for one, lies in a single bank (pad each row by one element, "
                       "[32][33])."},
    {"global_atomics", "Accumulate in shared memory first and add each block's result to "
                       "global memory once."},
    {"global_loads_per_output",
     "Load each input element from global memory once (per block) into shared memory or "
     "registers, and reuse it from there: a stencil's neighbours, a row that several passes "
     "read, a tile that every thread of the block reads."},
    {"additions", "A work-efficient algorithm does O(n) additions; one that adds at every "
                  "step for every element does O(n log n)."},
    {"global_load_bytes_per_flop",
     "Each element a thread loads from global memory should serve many operations: load "
     "tiles of the inputs into shared memory once per block (and reuse values from "
     "registers), so that one load feeds a whole row or column of multiply-adds."},
    {"tensor_instructions", "Multiply on the tensor cores: wmma::mma_sync (or mma.sync) "
                            "does a 16 x 16 x 16 tile in one warp instruction, where "
                            "floating-point fma does one product per thread."},
    {"tensor_core_share",
     "Do the product's multiply-adds on the tensor cores: accumulate every 16 x 16 x 16 "
     "piece of C with wmma::mma_sync (or mma.sync) into the fragment you store, and keep "
     "scalar floating-point work to an epilogue (scaling C is M x N operations; the "
     "product's M x N x K on scalar fma counts against the share, and mma on fragments "
     "whose result is not used counts for nothing)."},
    {"work_distribution",
     "Each block should compute the part of the output the launch gives it (its own "
     "tile, from blockIdx), not more: a block that computes the whole output while the "
     "others return leaves the GPU's other SMs idle."},
    {"pipeline_overlap",
     "Keep the next tile's copy in flight while you compute on this one: issue and commit "
     "tile t + 1's cp.async group before waiting, then cp.async.wait_group 1 (not 0), which "
     "waits only for the older group, tile t's."},
    {"float_additions", "A work-efficient scan (Blelloch: an up-sweep and a down-sweep) does "
                        "about 2n additions; Hillis-Steele adds at every step for almost every "
                        "element, about n log2 n."},
};

/* Why a launch did not finish, with where: "an out-of-bounds access at k.cu:6"; never
 * without a reason: the step limit, an unsupported instruction (deep recursion: "call
 * stack overflow calling 'f' ..."), a launch the simulator refused (the memory limit)
 * give the simulator's own sentence. */
static void why_stopped(const sim_run *r, char *buf, size_t len)
{
    const gl_fault *f = &r->fault;
    const char *what = f->kind == GL_FAULT_OUT_OF_BOUNDS ? "an out-of-bounds access"
                       : f->kind == GL_FAULT_MISALIGNED  ? "a misaligned access"
                       : f->kind == GL_FAULT_DEADLOCK    ? "a deadlock"
                       : f->kind == GL_FAULT_TRAP        ? "a trap or failed assert"
                       : f->kind == GL_FAULT_GPU         ? "a fault on the GPU"
                                                         : NULL;
    int n = -1; /* the sentence itself (the step limit, unsupported, refused), without
                   the states of the block's warps that follow it */
    if (!what) {
        what = f->message[0] ? f->message : r->error[0] ? r->error : "the launch did not run";
        const char *warps = strstr(what, "; warps of block");
        n = warps ? (int)(warps - what) : -1;
    }
    const char *file = gl_display_path(f->src_file);
    if (f->src_file[0] && f->src_line > 0 && !strstr(what, file))
        snprintf(buf, len, "%.*s at %s:%d", n, what, file, f->src_line);
    else
        snprintf(buf, len, "%.*s", n, what);
}

/* ------------------------------------------------------------------------- advice */

/* A failed check's advice: what to change, each line chosen by the facts of the failure
 * it follows (a race's two threads, warps and blocks and lines; a fault's space, block
 * and allocation; a finding's space), never by the check's kind alone. */

/* "line 12", or "an unknown line" when the access has no source line. */
static const char *line_name(int line, char *buf, size_t n)
{
    if (line > 0)
        snprintf(buf, n, "line %d", line);
    else
        snprintf(buf, n, "an unknown line");
    return buf;
}

/* line_name with a capital: "Line 12", "An unknown line". */
static const char *line_name_cap(int line, char *buf, size_t n)
{
    line_name(line, buf, n);
    buf[0] = (char)(buf[0] - 'a' + 'A');
    return buf;
}

/* What an access does: "read", "write", "atomic update". */
static const char *op_noun(int op)
{
    return op == 1 ? "write" : op == 2 ? "atomic update" : "read";
}

/* Where a barrier between an earlier access at line a and a later one at line b goes.
 * In program order a before b: between them. The earlier access on the later line (a >
 * b): the code meant line b's access to come first, and the barrier goes between them;
 * or a loop runs line a before line b comes round again (the barrier between them
 * already there), and it goes at the loop's end. */
static void barrier_place(int a, int b, const char *barrier, char *buf, size_t n)
{
    if (a <= 0 || b <= 0 || a == b)
        snprintf(buf, n, "Put %s between the two accesses", barrier);
    else if (a < b)
        snprintf(buf, n, "Put %s after line %d and before line %d", barrier, a, b);
    else
        snprintf(buf, n,
                 "Put %s after line %d and before line %d, so that line %d's access comes "
                 "first; or, if a barrier stands there already, after line %d and before a "
                 "loop comes back to line %d",
                 barrier, b, a, b, a, b);
}

/* What two accesses of one source line need: a read and a write (split the line around
 * the barrier), and where threads also wrote the element there (waw: x += v by several
 * threads, or steps of a loop taking turns), an atomic or a barrier between the steps. */
static void same_line_advice(gl_check_result *c, const gl_finding *f, int waw, const char *barrier)
{
    char l[32];
    const char *what = f->var[0] ? f->var : "the same element";
    line_name(f->access.src_line, l, sizeof l);
    if (waw)
        grade_add_detail(
            c,
            "Several threads write %s at %s. If each adds to it (x += v), make that one "
            "atomic (atomicAdd, ...) or give each thread its own element; if they take "
            "turns, one step of a loop each, put %s between the steps.",
            what, l, barrier);
    else
        grade_add_detail(
            c,
            "%s both reads and writes %s: read the value into a variable, then %s, then "
            "write (and in a loop, another %s before the next step reads again).",
            line_name_cap(f->access.src_line, l, sizeof l), what, barrier, barrier);
}

/* Advice for one race (race_scope_of(f) == scope); waw: a write-after-write race of the
 * same scope lies on f's line too. */
static void race_advice(gl_check_result *c, const gl_finding *f, race_scope scope, int waw)
{
    const gl_access *a = &f->other, *b = &f->access; /* earlier, later */
    char la[32], lb[32], place[400];
    const char *what = f->var[0]                     ? f->var
                       : f->space == GL_SPACE_GLOBAL ? "the same global memory"
                                                     : "the same shared memory";
    line_name(a->src_line, la, sizeof la);
    line_name(b->src_line, lb, sizeof lb);
    const int one_line = a->src_line > 0 && a->src_line == b->src_line;
    switch (scope) {
    case RACE_GRID:
        grade_add_detail(
            c,
            "Blocks run at the same time and no barrier spans them: block (%u,%u,%u)'s "
            "%s at %s and block (%u,%u,%u)'s %s at %s touched %s with nothing ordering "
            "them, and __syncthreads() orders only the threads of one block. Make the "
            "update one atomic (atomicAdd, atomicMax, ...), let each block own the "
            "elements it writes (index them with blockIdx), or combine the blocks' "
            "results in a second launch.",
            a->block[0], a->block[1], a->block[2], op_noun(a->op), la, b->block[0], b->block[1],
            b->block[2], op_noun(b->op), lb, what);
        break;
    case RACE_CLUSTER:
        barrier_place(a->src_line, b->src_line, "cluster.sync() (barrier.cluster.arrive and wait)",
                      place, sizeof place);
        grade_add_detail(
            c,
            "Blocks of a cluster run at the same time: block (%u,%u,%u)'s %s at %s and "
            "block (%u,%u,%u)'s %s at %s touched %s in one block's shared memory with no "
            "cluster barrier between them. %s.",
            a->block[0], a->block[1], a->block[2], op_noun(a->op), la, b->block[0], b->block[1],
            b->block[2], op_noun(b->op), lb, what, place);
        break;
    case RACE_ASYNC:
        if (!memcmp(a->thread, b->thread, sizeof a->thread))
            grade_add_detail(
                c,
                "The cp.async at %s had not landed when the same thread read %s at %s: "
                "wait for its group (cp.async.wait_group or wait_all, or the pipeline's "
                "consumer_wait) before %s.",
                la, what, lb, lb);
        else
            grade_add_detail(c,
                             "The cp.async that thread (%u,%u,%u) issued at %s had not landed when "
                             "thread (%u,%u,%u) read %s at %s: the thread that issued a copy must "
                             "wait for its group (cp.async.wait_group or wait_all), and a "
                             "__syncthreads() after that wait, before %s, makes every thread's "
                             "copies visible to the others.",
                             a->thread[0], a->thread[1], a->thread[2], la, b->thread[0],
                             b->thread[1], b->thread[2], what, lb, lb);
        break;
    case RACE_BLOCK:
        if (one_line) {
            same_line_advice(c, f, waw, "__syncthreads()");
            break;
        }
        barrier_place(a->src_line, b->src_line, "__syncthreads()", place, sizeof place);
        grade_add_detail(
            c,
            "Warps of a block run in any order: warp %d's %s at %s and warp %d's %s at "
            "%s touched %s with no barrier between them. %s. Every thread of the block "
            "must reach it: not inside a branch only some threads take.",
            a->warp, op_noun(a->op), la, b->warp, op_noun(b->op), lb, what, place);
        break;
    case RACE_WARP:
        if (one_line) {
            same_line_advice(c, f, waw, "__syncwarp()");
            break;
        }
        barrier_place(a->src_line, b->src_line, "__syncwarp()", place, sizeof place);
        grade_add_detail(
            c,
            "Lanes of warp %d touched %s (a %s at %s, then a %s at %s) with nothing "
            "between them: since Volta a warp's lanes need not run in lockstep. %s, or "
            "exchange the values in registers with __shfl_sync() and its relatives.",
            b->warp, what, op_noun(a->op), la, op_noun(b->op), lb, place);
        break;
    case RACE_NONE: break;
    }
}

/* Whether the source lines of races f and g overlap (as ranges from the lower line to the
 * higher): one barrier placed for g can order f too. */
static int lines_overlap(const gl_finding *f, const gl_finding *g)
{
    const int f0 = f->access.src_line, f1 = f->other.src_line;
    const int g0 = g->access.src_line, g1 = g->other.src_line;
    if (f0 <= 0 || f1 <= 0 || g0 <= 0 || g1 <= 0)
        return 0;
    const int flo = f0 < f1 ? f0 : f1, fhi = f0 < f1 ? f1 : f0;
    const int glo = g0 < g1 ? g0 : g1, ghi = g0 < g1 ? g1 : g0;
    return flo <= ghi && glo <= fhi;
}

/* The runs of check k's sizes that ran, into out[] (at most max), each with its size's
 * size_run in of[]: for each size its default-schedule run, then (random: 1) its
 * random-schedule runs and (dbg: 1) its debug build's. Returns how many. */
static int check_runs(const gl_exercise *e, const gl_check *k, const size_run *runs, int nruns,
                      int random, int dbg, const sim_run **out, const size_run **of, int max)
{
    int n = 0;
    for (int i = 0; i < nruns; i++) {
        const size_run *r = &runs[i];
        if (!uses_size(k, e, r->n) || r->skipped)
            continue;
        if (n < max)
            out[n] = &r->got, of[n++] = r;
        for (int s = 0; random && s < r->nsched && n < max; s++)
            out[n] = &r->sched[s], of[n++] = r;
        if (dbg && r->have_dbg && n < max)
            out[n] = &r->dbg, of[n++] = r;
    }
    return n;
}

enum { ADVICE_MAX_RUNS = 512 };

/* no_races: one line per scope of race seen (race_scope), widest first; a race inside a
 * warp only where no race between warps or blocks spans its lines (the __syncthreads()
 * that one needs orders it too). */
static void advise_races(const gl_exercise *e, const gl_check *k, const size_run *runs, int nruns,
                         gl_check_result *c)
{
    const sim_run *rs[ADVICE_MAX_RUNS];
    const size_run *of[ADVICE_MAX_RUNS];
    const int n = check_runs(e, k, runs, nruns, 1, 0, rs, of, ADVICE_MAX_RUNS);
    for (int scope = RACE_GRID; scope > RACE_NONE; scope--) {
        const gl_finding *pick = NULL;
        for (int i = 0; i < n && !pick; i++)
            for (int j = 0; j < rs[i]->nfindings && !pick; j++) {
                const gl_finding *f = &rs[i]->findings[j];
                if ((int)race_scope_of(f) != scope)
                    continue;
                int covered = 0;
                for (int i2 = 0; scope == RACE_WARP && i2 < n && !covered; i2++)
                    for (int j2 = 0; j2 < rs[i2]->nfindings && !covered; j2++) {
                        const gl_finding *g = &rs[i2]->findings[j2];
                        const race_scope gs = race_scope_of(g);
                        covered = (gs == RACE_BLOCK || gs == RACE_GRID) && lines_overlap(f, g);
                    }
                if (!covered)
                    pick = f;
            }
        if (!pick)
            continue;
        int waw = 0; /* a write-after-write race of this scope on the pick's one line */
        for (int i = 0; i < n && !waw; i++)
            for (int j = 0; j < rs[i]->nfindings && !waw; j++) {
                const gl_finding *g = &rs[i]->findings[j];
                waw = (int)race_scope_of(g) == scope && g->hazard == GL_HAZ_WAW &&
                      g->access.src_line == pick->access.src_line &&
                      g->other.src_line == pick->access.src_line;
            }
        race_advice(c, pick, (race_scope)scope, waw);
    }
}

/* What an out-of-bounds or misaligned access shows, from its facts. */
typedef enum fault_class {
    FAULT_MISALIGNED, /* an address not a multiple of the access's size */
    FAULT_SHARED,     /* outside the block's shared memory */
    FAULT_LOCAL,      /* outside a thread's local memory */
    FAULT_BEFORE,     /* before the start of a buffer: an index below 0 */
    FAULT_GUARD,      /* a thread of a 1-D grid of n threads rounded up to whole blocks
                         whose index i >= n */
    FAULT_INDEX,      /* the same whose index i < n: another index went past */
    FAULT_LOOP,       /* in a block inside the grid (not its last along any dimension of
                         more than one block): with the usual index its threads' own
                         indices are inside the data, so the index came from a loop or
                         from a wrong formula */
    FAULT_EDGE,       /* in a block at the grid's edge, or the grid's only block */
    FAULT_CLASSES
} fault_class;

static fault_class classify_fault(const gl_fault *f, const size_run *r)
{
    if (f->kind == GL_FAULT_MISALIGNED)
        return FAULT_MISALIGNED;
    if (f->space == GL_SPACE_SHARED)
        return FAULT_SHARED;
    if (f->space == GL_SPACE_LOCAL)
        return FAULT_LOCAL;
    if (f->alloc_bytes && !f->alloc_after)
        return FAULT_BEFORE;
    const unsigned *g = r->spec.grid, *b = r->spec.block;
    if (g[1] == 1 && g[2] == 1 && b[1] == 1 && b[2] == 1 && r->n > 0 &&
        (uint64_t)g[0] == ((uint64_t)r->n + b[0] - 1) / b[0])
        return (uint64_t)f->block[0] * b[0] + f->thread[0] >= (uint64_t)r->n ? FAULT_GUARD
                                                                             : FAULT_INDEX;
    int several = 0, edge = 0;
    for (int d = 0; d < 3; d++)
        if (g[d] > 1) {
            several = 1;
            edge |= f->block[d] == g[d] - 1;
        }
    return several && !edge ? FAULT_LOOP : FAULT_EDGE;
}

static void fault_advice(gl_check_result *c, fault_class fc, const gl_fault *f, const size_run *r)
{
    char l[32];
    line_name(f->src_line, l, sizeof l);
    char buf[80] = "a buffer";
    if (f->alloc_name[0])
        snprintf(buf, sizeof buf, "'%s'", f->alloc_name);
    const uint64_t i = (uint64_t)f->block[0] * r->spec.block[0] + f->thread[0];
    const unsigned *g = r->spec.grid;
    switch (fc) {
    case FAULT_MISALIGNED:
        grade_add_detail(
            c,
            "The %u-byte access at %s used an address that is not a multiple of %u: a "
            "vector access (float4, int2, ...) must start at an element index that is a "
            "multiple of its width; handle the elements before and after the aligned "
            "part one at a time.",
            f->size, l, f->size);
        break;
    case FAULT_SHARED:
        grade_add_detail(
            c,
            "The access at %s went outside the shared memory the block declared: "
            "compare the largest index it takes (the block's last thread, a halo's far "
            "edge, a loop's last step) with the __shared__ array's size.",
            l);
        break;
    case FAULT_LOCAL:
        grade_add_detail(c,
                         "The access at %s went outside a thread's local array: check its index "
                         "against the array's declared length.",
                         l);
        break;
    case FAULT_BEFORE:
        grade_add_detail(c,
                         "The access at %s lies %llu bytes before the start of %s: an index went "
                         "below 0 (a neighbour i - 1 at i = 0, a halo's left edge): guard it too.",
                         l, (unsigned long long)f->alloc_distance, buf);
        break;
    case FAULT_GUARD:
        grade_add_detail(c,
                         "Thread i = %llu (blockIdx.x * blockDim.x + threadIdx.x) accessed %s past "
                         "its end at %s for n = %lld: the grid is rounded up to whole blocks, so "
                         "when n is not a multiple of the block size the last block has threads "
                         "whose index is >= n. They must not touch the arrays: guard the access "
                         "with if (i < n).",
                         (unsigned long long)i, buf, l, (long long)r->n);
        break;
    case FAULT_INDEX:
        grade_add_detail(
            c,
            "Thread i = %llu (blockIdx.x * blockDim.x + threadIdx.x) is below n = %lld, "
            "yet it accessed %s past its end at %s: an index other than the thread's "
            "own went out of range (i + 1, the last elements of a vector access, a "
            "loop's index): check that one against the array's length.",
            (unsigned long long)i, (long long)r->n, buf, l);
        break;
    case FAULT_LOOP:
        grade_add_detail(
            c,
            "Block (%u,%u,%u) is not at the edge of the grid: with the usual index "
            "(blockIdx * blockDim + threadIdx) its threads' rows and columns lie inside "
            "the data, so the index that went past the end of %s at %s comes from "
            "elsewhere: a loop (the last tile of a loop over K when K is not a multiple "
            "of the tile, a stride loop's bound) or the formula itself (a stride or "
            "offset of the wrong size). Check that index against the length it runs "
            "over (and load 0 for the elements of a tile outside the matrix).",
            f->block[0], f->block[1], f->block[2], buf, l);
        break;
    case FAULT_EDGE: {
        char along[64] = "";
        static const char *const dim[3] = {"x", "y", "z"};
        for (int d = 0; d < 3; d++)
            if (g[d] > 1 && f->block[d] == g[d] - 1)
                snprintf(along + strlen(along), sizeof along - strlen(along), "%s%s",
                         along[0] ? " and " : "", dim[d]);
        grade_add_detail(
            c,
            "Block (%u,%u,%u) is %s%s, and one of its threads accessed %s past its "
            "end at %s: threads of the grid's last blocks lie past the edge of the data "
            "when a size is not a multiple of the block. Check every index against its "
            "own bound: the thread's row against the rows, its column against the "
            "columns, and each loop's index (the last tile of a loop over K) against "
            "the length it runs over.",
            f->block[0], f->block[1], f->block[2],
            along[0] ? "the grid's last along " : "the grid's only block", along, buf, l);
        break;
    }
    case FAULT_CLASSES: break;
    }
}

/* no_out_of_bounds: one line per class of fault seen (fault_class) in the default and
 * debug builds' runs; the general edge advice only where no run showed a more particular
 * one. */
static void advise_faults(const gl_exercise *e, const gl_check *k, const size_run *runs, int nruns,
                          gl_check_result *c)
{
    const sim_run *rs[ADVICE_MAX_RUNS];
    const size_run *of[ADVICE_MAX_RUNS];
    const int n = check_runs(e, k, runs, nruns, 0, 1, rs, of, ADVICE_MAX_RUNS);
    int first[FAULT_CLASSES];
    for (int i = 0; i < FAULT_CLASSES; i++)
        first[i] = -1;
    for (int i = 0; i < n; i++)
        if (is_memory_fault(&rs[i]->fault)) {
            const fault_class fc = classify_fault(&rs[i]->fault, of[i]);
            if (first[fc] < 0)
                first[fc] = i;
        }
    if (first[FAULT_GUARD] >= 0 || first[FAULT_INDEX] >= 0 || first[FAULT_LOOP] >= 0)
        first[FAULT_EDGE] = -1;
    for (int fc = 0; fc < FAULT_CLASSES; fc++)
        if (first[fc] >= 0)
            fault_advice(c, (fault_class)fc, &rs[first[fc]]->fault, of[first[fc]]);
}

/* no_uninitialized_reads: by the space of the first load of unwritten memory. */
static void advise_uninit(const gl_exercise *e, const gl_check *k, const size_run *runs, int nruns,
                          gl_check_result *c)
{
    const sim_run *rs[ADVICE_MAX_RUNS];
    const size_run *of[ADVICE_MAX_RUNS];
    const int n = check_runs(e, k, runs, nruns, 0, 1, rs, of, ADVICE_MAX_RUNS);
    const gl_finding *f = NULL;
    for (int i = 0; i < n && !f; i++)
        f = shown_finding(rs[i], GL_FIND_UNINIT_READ);
    if (!f)
        return;
    char l[32];
    line_name_cap(f->access.src_line, l, sizeof l);
    if (f->space == GL_SPACE_SHARED)
        grade_add_detail(
            c,
            "%s read %s, which no thread of the block had stored: shared memory starts "
            "with arbitrary values on a GPU. Store every element that is read (zeros "
            "where a tile passes the edge of the data) before the __syncthreads() that "
            "comes before the reads.",
            l, f->var[0] ? f->var : "shared memory");
    else if (f->space == GL_SPACE_GLOBAL)
        grade_add_detail(c,
                         "%s read global memory that neither the inputs nor the kernel had written "
                         "(a buffer the host did not fill starts with arbitrary values on a GPU): "
                         "write it before it is read, or do not read it.",
                         l);
    else
        grade_add_detail(c,
                         "%s read a variable or array element before anything was stored in it: "
                         "give it a value first.",
                         l);
}

/* no_deadlock: by what the first failing run showed: a barrier never released, threads
 * released from different barriers, or a barrier released after threads had exited. */
static void advise_deadlock(const gl_exercise *e, const gl_check *k, const size_run *runs,
                            int nruns, gl_check_result *c)
{
    const sim_run *rs[ADVICE_MAX_RUNS];
    const size_run *of[ADVICE_MAX_RUNS];
    const int n = check_runs(e, k, runs, nruns, 0, 0, rs, of, ADVICE_MAX_RUNS);
    char l[32];
    for (int i = 0; i < n; i++) {
        if (rs[i]->fault.kind == GL_FAULT_DEADLOCK) {
            grade_add_detail(c,
                             "The block never got past the barrier at %s: __syncthreads() must be "
                             "reached by every thread of the block, at the same call. Take it out "
                             "of any branch or loop that only some threads run (guard the work "
                             "inside, not the barrier), and do not return before it.",
                             line_name(rs[i]->fault.src_line, l, sizeof l));
            return;
        }
        const gl_finding *f = shown_finding(rs[i], GL_FIND_DIVERGENT_BARRIER);
        if (f && f->kind == GL_FIND_EXITED_BARRIER) {
            grade_add_detail(
                c,
                "Threads of the block exited without reaching the __syncthreads() at %s "
                "that the others waited at: they returned early, or skipped the branch "
                "or loop that holds it. Every thread must reach every barrier: take the "
                "barrier out of the branch (guard only the work), and do not return "
                "before it.",
                line_name(f->access.src_line, l, sizeof l));
            return;
        }
        if (f) {
            grade_add_detail(
                c,
                "Threads of the block waited at different __syncthreads() calls (%s is "
                "one of them): each call is a barrier of its own, so the code around "
                "them is not synchronised as written. Use one __syncthreads() after the "
                "branch, reached by the whole block.",
                line_name(f->access.src_line, l, sizeof l));
            return;
        }
    }
}

/* time_limit: an endless loop, or a kernel that finished but issued too many
 * instructions. */
static void advise_time(const gl_exercise *e, const gl_check *k, const size_run *runs, int nruns,
                        gl_check_result *c)
{
    const sim_run *rs[ADVICE_MAX_RUNS];
    const size_run *of[ADVICE_MAX_RUNS];
    const int n = check_runs(e, k, runs, nruns, 0, 0, rs, of, ADVICE_MAX_RUNS);
    char l[32];
    for (int i = 0; i < n; i++)
        if (rs[i]->fault.kind == GL_FAULT_STEP_LIMIT) {
            grade_add_detail(
                c,
                "The kernel was still running at %s when it was stopped: does that loop "
                "ever end? Check its condition and its step.",
                line_name(rs[i]->fault.src_line, l, sizeof l));
            return;
        }
    grade_add_detail(c, "The kernel finished, but did more work than the task needs: look for a "
                        "loop that every thread runs over the whole input, or a step smaller than "
                        "the number of threads.");
}

/* theoretical_occupancy: by the limit that sets the resident blocks per SM. */
static void advise_occupancy(const size_run *runs, int nruns, gl_check_result *c)
{
    const gl_occupancy *o = NULL;
    for (int i = nruns - 1; i >= 0 && !o; i--)
        if (runs[i].got.occupancy.valid)
            o = &runs[i].got.occupancy;
    if (!o)
        return;
    if (strcmp(o->limiter, "shared memory") == 0)
        grade_add_detail(
            c,
            "Shared memory sets the limit: each block declares %u bytes, so an SM holds "
            "%d block%s of %d warps. A block that declares more than it needs at once "
            "keeps other blocks out: stage the data in smaller tiles, one after the "
            "other, with a barrier before each tile is overwritten.",
            o->shared_bytes, o->blocks_per_sm, o->blocks_per_sm == 1 ? "" : "s",
            o->warps_per_block);
    else if (strcmp(o->limiter, "blocks") == 0)
        grade_add_detail(
            c,
            "The number of blocks per SM sets the limit: an SM holds at most %d blocks, "
            "and blocks of %d warps fill %d of its %d warp slots. Use larger blocks.",
            o->blocks_per_sm, o->warps_per_block, o->blocks_per_sm * o->warps_per_block,
            o->max_warps_per_sm);
    else if (strcmp(o->limiter, "threads") == 0)
        grade_add_detail(c,
                         "Threads set the limit: blocks of %d warps fit %d times into the SM's %d "
                         "warp slots. Pick a block size whose warps divide %d.",
                         o->warps_per_block, o->blocks_per_sm, o->max_warps_per_sm,
                         o->max_warps_per_sm);
    else if (o->blocks_per_sm == 0)
        grade_add_detail(
            c,
            "Registers set the limit: %d per thread, and a block of %d warps needs more "
            "than the registers an SM gives one block, so a GPU does not launch it at all. "
            "Use fewer registers per thread (fewer values live at once), or smaller "
            "blocks.",
            o->regs_per_thread, o->warps_per_block);
    else
        grade_add_detail(
            c,
            "Registers set the limit: %d per thread (ptxas's count for this target), so "
            "an SM holds %d block%s of %d warps. Use fewer per thread (fewer values live "
            "at once: a smaller array per thread, fewer loops unrolled), or smaller "
            "blocks.",
            o->regs_per_thread, o->blocks_per_sm, o->blocks_per_sm == 1 ? "" : "s",
            o->warps_per_block);
}

/* The advice of failed check k (its detail's last lines). order_dependent: random_schedule
 * saw outputs differ between schedules (2: and the kernel read uninitialised memory);
 * sched_stopped: a random schedule's run stopped where the default one finished. */
static void advise(const gl_exercise *e, const gl_check *k, const size_run *runs, int nruns,
                   int order_dependent, int sched_stopped, gl_check_result *c)
{
    switch (k->kind) {
    case GL_CHECK_NO_FAULT: advise_faults(e, k, runs, nruns, c); break;
    case GL_CHECK_NO_RACES: advise_races(e, k, runs, nruns, c); break;
    case GL_CHECK_NO_UNINIT: advise_uninit(e, k, runs, nruns, c); break;
    case GL_CHECK_NO_DEADLOCK: advise_deadlock(e, k, runs, nruns, c); break;
    case GL_CHECK_TIME_LIMIT: advise_time(e, k, runs, nruns, c); break;
    case GL_CHECK_RANDOM_SCHEDULE:
        if (order_dependent == 2)
            grade_add_detail(c,
                             "The result changes from run to run because the kernel reads memory "
                             "that nothing wrote (no_uninitialized_reads says where): it holds "
                             "different garbage each time, on a GPU as here.");
        else if (order_dependent || sched_stopped)
            grade_add_detail(c,
                             "The result depends on the order in which warps and blocks run: "
                             "under a random order %s.",
                             sched_stopped && !order_dependent
                                 ? "the kernel stopped where the default order finished"
                                 : "the output differed from the default order's");
        else
            grade_add_detail(c, "The output was the same under every schedule tried, and wrong "
                                "(matches_reference says where), or a run stopped: the order in "
                                "which warps run is not what is wrong here.");
        break;
    case GL_CHECK_METRIC:
        if (strcmp(k->metric, "theoretical_occupancy") == 0) {
            advise_occupancy(runs, nruns, c);
            break;
        }
        for (size_t i = 0; i < sizeof k_metric_advice / sizeof *k_metric_advice; i++)
            if (strcmp(k_metric_advice[i][0], k->metric) == 0)
                grade_add_detail(c, "%s", k_metric_advice[i][1]);
        break;
    case GL_CHECK_MATCHES_REFERENCE: break;
    }
}

/* Appends label to the comma-separated list in buf[size], as much as fits. */
static void append_label(char *buf, size_t size, const char *label)
{
    const size_t used = strlen(buf);
    if (used + 1 < size)
        snprintf(buf + used, size - used, "%s%s", used ? ", " : "", label);
}

static void run_check(const gl_exercise *e, const gl_check *k, const size_run *runs, int nruns,
                      gl_check_result *c)
{
    snprintf(c->name, sizeof c->name, "%s", k->name);
    c->passed = 1;
    int failed = 0, nnot_run = 0, more_adv = 0, not_run_adv = 0;
    char more[256] = "", not_run[256] = "", why_not_run[1024] = "";
    char regs_unknown[512] = "";      /* theoretical_occupancy: registers per thread unknown and
                                    the bound cannot decide (why, with the bound) */
    const gl_check *ref_check = NULL; /* outputs of matches_reference, for metrics */
    for (int i = 0; i < e->nchecks; i++)
        if (e->checks[i].kind == GL_CHECK_MATCHES_REFERENCE && !ref_check)
            ref_check = &e->checks[i];
    const char *metric_what = "";
    int order_dependent = 0; /* random_schedule: some schedule's outputs differ from the
                                deterministic schedule's (not merely from the reference);
                                2: and the kernel read uninitialised memory */
    int sched_stopped = 0;   /* random_schedule: a random schedule's run stopped where the
                              default schedule's finished */
    for (int i = 0; i < nruns; i++) {
        const size_run *r = &runs[i];
        if (!uses_size(k, e, r->n) || (r->inputs && k->kind == GL_CHECK_METRIC))
            continue;
        /* A check is judged on a run that finished; on one that did not (a fault, a
         * deadlock, an endless loop, or a size never run after one), it fails only
         * where what stopped the kernel is what it checks, and is otherwise not run. */
        int ok = 1, finished = r->got.status == GL_OK && !r->skipped;
        gl_check_result scratch = {0};
        gl_check_result *out = failed < GRADE_DETAILED_SIZES ? c : &scratch;
        char buf[4096];
        if (r->skipped)
            goto not_judged;
        switch (k->kind) {
        case GL_CHECK_NO_FAULT:
            if (is_memory_fault(&r->got.fault)) {
                ok = 0;
                grade_add_detail(out, "n = %s: %s", r->label, r->got.error);
            } else if (r->have_dbg && is_memory_fault(&r->dbg.fault)) {
                /* the optimiser moved the access under a guard; as written it is wrong */
                ok = 0;
                grade_add_detail(out, "n = %s, debug build (-G, as written): %s", r->label,
                                 r->dbg.error);
            }
            break;
        case GL_CHECK_NO_RACES:
            if (describe_finding(&r->got, GL_FIND_RACE, buf, sizeof buf)) {
                ok = 0;
                grade_add_detail(out, "n = %s: %s", r->label, buf);
            }
            for (int s = 0; ok && s < r->nsched; s++)
                if (describe_finding(&r->sched[s], GL_FIND_RACE, buf, sizeof buf)) {
                    ok = 0;
                    grade_add_detail(out, "n = %s, random schedule %d: %s", r->label, s + 1, buf);
                }
            break;
        case GL_CHECK_NO_DEADLOCK:
            if (r->got.fault.kind == GL_FAULT_DEADLOCK) {
                ok = 0;
                grade_add_detail(out, "n = %s: %s", r->label, r->got.error);
            } else if (describe_finding(&r->got, GL_FIND_DIVERGENT_BARRIER, buf, sizeof buf)) {
                ok = 0;
                grade_add_detail(out, "n = %s: %s", r->label, buf);
            }
            break;
        case GL_CHECK_NO_UNINIT:
            if (describe_finding(&r->got, GL_FIND_UNINIT_READ, buf, sizeof buf)) {
                ok = 0;
                grade_add_detail(out, "n = %s: %s", r->label, buf);
            } else if (r->have_dbg &&
                       describe_finding(&r->dbg, GL_FIND_UNINIT_READ, buf, sizeof buf)) {
                ok = 0;
                grade_add_detail(out, "n = %s, debug build (-G, as written): %s", r->label, buf);
            }
            break;
        case GL_CHECK_TIME_LIMIT:
            if (r->got.fault.kind == GL_FAULT_STEP_LIMIT) {
                ok = 0;
                grade_add_detail(out, "n = %s: %s", r->label, r->got.error);
            } else if (r->got.stats.warp_instructions > k->max_steps) {
                ok = 0;
                grade_add_detail(out,
                                 "n = %s: the kernel issued %llu warp instructions; the "
                                 "limit is %llu",
                                 r->label, (unsigned long long)r->got.stats.warp_instructions,
                                 (unsigned long long)k->max_steps);
            }
            break;
        case GL_CHECK_METRIC:
            if (!finished) {
                break; /* not measured */
            } else if ((!r->got.traced && strcmp(k->metric, "theoretical_occupancy") != 0) ||
                       (!r->expect.traced && strcmp(k->metric, "work_distribution") == 0)) {
                ok = 0;
                grade_add_detail(out, "n = %s: not measured (no trace)", r->label);
            } else {
                double v = metric_value(k, ref_check, r, &metric_what);
                if (strcmp(k->metric, "theoretical_occupancy") == 0 && r->got.occupancy.bound &&
                    !(k->has_min && v < k->min) && !(!k->has_min && k->has_max && v <= k->max)) {
                    /* registers per thread unknown: v is an upper bound, which fails a
                     * minimum it is under and passes a maximum it is within; else it
                     * tells nothing */
                    if (!regs_unknown[0])
                        snprintf(regs_unknown, sizeof regs_unknown,
                                 "not run: registers per thread unknown (%s), so the "
                                 "theoretical occupancy is at most %.4g%% (limit without "
                                 "registers: %s); a CUDA Toolkit's ptxas counts them",
                                 r->got.occupancy.regs_why, v, r->got.occupancy.limiter);
                    break;
                }
                if ((k->has_min && v < k->min) || (k->has_max && v > k->max)) {
                    ok = 0;
                    char bound[64];
                    if (k->has_min)
                        snprintf(bound, sizeof bound, "at least %g", k->min);
                    else
                        snprintf(bound, sizeof bound, "at most %g", k->max);
                    grade_add_detail(out, "n = %s: %s is %.4g; it must be %s", r->label,
                                     metric_what, v, bound);
                    if (strcmp(k->metric, "tensor_core_share") == 0) {
                        double t, sc;
                        product_work(&r->got.counts, &t, &sc);
                        grade_add_detail(
                            out,
                            "n = %s: the tensor cores did %.0f multiply-adds and scalar "
                            "floating-point instructions %.0f; the product has %lld",
                            r->label, t, sc, (long long)lesson_check_product(k, r->n));
                    }
                }
            }
            break;
        case GL_CHECK_RANDOM_SCHEDULE:
            for (int s = 0; ok && s < r->nsched; s++) {
                const sim_run *sr = &r->sched[s];
                char where[64];
                snprintf(where, sizeof where, ", random schedule %d", s + 1);
                if (sr->status != GL_OK) {
                    ok = 0;
                    sched_stopped |= finished;
                    grade_add_detail(out, "n = %s%s: %s", r->label, where, sr->error);
                } else {
                    /* this schedule's output is not the default schedule's: the order
                     * matters (2: and the kernel read uninitialised memory) */
                    const int differs =
                        finished && outputs_differ(k, r, r->got.buffers, sr->buffers);
                    if (differs)
                        order_dependent =
                            describe_finding(&r->got, GL_FIND_UNINIT_READ, buf, sizeof buf) ? 2 : 1;
                    if (!k->implicit) {
                        ok = compare_outputs(k, r, sr->buffers, where, out);
                    } else if (differs) {
                        /* not declared: judges only the order (matches_reference judges
                         * the values), so a wrong answer fails once, not twice */
                        ok = 0;
                        grade_add_detail(out,
                                         "n = %s%s: the output differs from the one under "
                                         "the default schedule",
                                         r->label, where);
                    }
                }
            }
            break;
        case GL_CHECK_MATCHES_REFERENCE:
            if (finished)
                ok = compare_outputs(k, r, r->got.buffers, "", out);
            if (ok && r->on_gpu) {
                if (r->gpu_status != GL_OK) {
                    ok = 0;
                    grade_add_detail(out, "n = %s, on the GPU: %s", r->label, r->gpu_error);
                } else {
                    ok = compare_outputs(k, r, r->got_gpu.buffers, ", on the GPU", out);
                }
            }
            break;
        }
    not_judged:
        if (ok && !finished) {
            /* sizes by number; adversarial inputs counted (their labels are long) */
            if (r->inputs)
                not_run_adv++;
            else
                append_label(not_run, sizeof not_run, r->label);
            nnot_run++;
            if (!why_not_run[0])
                why_stopped(&r->got, why_not_run, sizeof why_not_run);
            c->passed = 0;
        } else if (!ok) {
            if (failed >= GRADE_DETAILED_SIZES && r->inputs)
                more_adv++;
            else if (failed >= GRADE_DETAILED_SIZES)
                append_label(more, sizeof more, r->label);
            failed++;
            c->passed = 0;
        }
    }
    if (failed > GRADE_DETAILED_SIZES && !*more)
        grade_add_detail(c, "also fails for %d sets of adversarial inputs", more_adv);
    else if (failed > GRADE_DETAILED_SIZES)
        grade_add_detail(c, "also fails for n = %s%s", more,
                         more_adv ? " and adversarial inputs" : "");
    if (regs_unknown[0] && !failed) {
        c->passed = 0;
        c->not_run = c->regs_unknown = 1;
        grade_add_detail(c, "%s", regs_unknown);
    }
    if (nnot_run) {
        c->not_run = !failed;
        if (!*not_run)
            grade_add_detail(c,
                             "not run for %d sets of adversarial inputs: the kernel did not "
                             "finish (%s)",
                             not_run_adv, why_not_run);
        else
            grade_add_detail(c, "not run for n = %s%s: the kernel did not finish (%s)", not_run,
                             not_run_adv ? " and adversarial inputs" : "", why_not_run);
    }
    char sizes[256] = "";
    size_t used = 0;
    int adversarial = 0;
    for (int i = 0; i < nruns && used < sizeof sizes - 24; i++)
        if (uses_size(k, e, runs[i].n) && !runs[i].skipped && !runs[i].inputs)
            used += (size_t)snprintf(sizes + used, sizeof sizes - used, "%s%lld", used ? ", " : "",
                                     (long long)runs[i].n);
        else if (uses_size(k, e, runs[i].n) && !runs[i].skipped && k->kind != GL_CHECK_METRIC)
            adversarial++;
    if (adversarial && used < sizeof sizes - 40)
        snprintf(sizes + used, sizeof sizes - used, ", and %d sets of adversarial inputs",
                 adversarial);
    if (c->passed) {
        switch (k->kind) {
        case GL_CHECK_NO_FAULT:
            grade_add_detail(c, "no out-of-bounds or misaligned access for n = %s", sizes);
            break;
        case GL_CHECK_NO_RACES: grade_add_detail(c, "no data races for n = %s", sizes); break;
        case GL_CHECK_NO_DEADLOCK:
            grade_add_detail(c, "every barrier was reached by the whole block for n = %s", sizes);
            break;
        case GL_CHECK_NO_UNINIT:
            grade_add_detail(c, "every load read memory written before for n = %s", sizes);
            break;
        case GL_CHECK_TIME_LIMIT:
            grade_add_detail(c, "finished within %llu warp instructions for n = %s",
                             (unsigned long long)k->max_steps, sizes);
            break;
        case GL_CHECK_METRIC: {
            const char *what = "";
            double v = 0;
            for (int i = nruns - 1; i >= 0; i--)
                if (uses_size(k, e, runs[i].n) && !runs[i].inputs) {
                    v = metric_value(k, ref_check, &runs[i], &what);
                    grade_add_detail(c, "n = %s: %s is %.4g (%s %g)", runs[i].label, what, v,
                                     k->has_min ? "at least" : "at most",
                                     k->has_min ? k->min : k->max);
                    break;
                }
            break;
        }
        case GL_CHECK_RANDOM_SCHEDULE:
            if (k->implicit)
                grade_add_detail(c,
                                 "output the same under %d random schedules as under the "
                                 "default one for n = %s",
                                 k->seeds, sizes);
            else
                grade_add_detail(c,
                                 "output matches the reference under %d random schedules for "
                                 "n = %s",
                                 k->seeds, sizes);
            break;
        case GL_CHECK_MATCHES_REFERENCE:
            grade_add_detail(c, "output matches the reference for n = %s", sizes);
            break;
        }
    } else if (!c->not_run) { /* no advice where nothing was judged */
        advise(e, k, runs, nruns, order_dependent, sched_stopped, c);
    }
}

int grade_sizes(const gl_exercise *e, int64_t *out, int max)
{
    int n = 0;
    for (int c = -1; c < e->nchecks; c++) {
        const int64_t *s = c < 0 ? e->sizes : e->checks[c].sizes;
        int count = c < 0 ? e->nsizes : e->checks[c].nsizes;
        for (int i = 0; s && i < count && n < max; i++) {
            int dup = 0;
            for (int j = 0; j < n; j++)
                dup |= out[j] == s[i];
            if (!dup)
                out[n++] = s[i];
        }
    }
    return n;
}

/* Does any check of kind `kind` use size n? */
static int wanted(const gl_exercise *e, gl_check_kind kind, int64_t n, int *seeds)
{
    int yes = 0;
    for (int i = 0; i < e->nchecks; i++)
        if (e->checks[i].kind == kind && uses_size(&e->checks[i], e, n)) {
            yes = 1;
            if (seeds && e->checks[i].seeds > *seeds)
                *seeds = e->checks[i].seeds;
        }
    return yes;
}

/* The module of the PTX compiled from source `name`, or NULL with the parser's
 * diagnostics in diag_out (PTX lines as "name (PTX):line:col"). */
static ptx_module_t *parse_ptx(const char *ptx, const char *name, char *diag_out, size_t len)
{
    ptx_module_t *m = NULL;
    char *diag = NULL;
    char ptx_name[PATH_MAX + 8];
    snprintf(ptx_name, sizeof ptx_name, "%s (PTX)", name);
    if (ptx_parse(ptx, strlen(ptx), ptx_name, &m, &diag) != SIM_OK)
        snprintf(diag_out, len, "%s", diag ? diag : "the PTX could not be parsed");
    free(diag);
    return m;
}

/* ------------------------------------------------------------- a grading's runs */

/* What every graded launch of one grading shares. */
typedef struct grade_env {
    const gl_exercise *e;
    uint64_t step_limit; /* warp instructions */
    uint64_t mem_limit;  /* bytes */
    const char *mem_origin;
    gl_compile_opts sim_compile; /* the modelled target */
    const gl_compiled *ref, *sub;
    int sandboxed; /* the submission's launches run in the sandbox */
    int traced;    /* some check is a metric */
    uint64_t seed; /* the grading's seed (gl_grade_report.seed) */
} grade_env;

/* The reference's launch at size n with inputs. */
static gl_run_opts ref_opts(const grade_env *g, int64_t n, gl_inputs inputs)
{
    int ref_metrics = 0; /* work_distribution compares with the reference's blocks */
    for (int k = 0; k < g->e->nchecks; k++)
        ref_metrics |= g->e->checks[k].metric && !inputs &&
                       strcmp(g->e->checks[k].metric, "work_distribution") == 0 &&
                       uses_size(&g->e->checks[k], g->e, n);
    return (gl_run_opts){.step_limit = g->step_limit,
                         .metrics = ref_metrics,
                         .compile = g->sim_compile,
                         .regs = g->ref->regs,
                         .regs_why = g->ref->regs_why,
                         .memory_limit = g->mem_limit,
                         .memory_limit_origin = g->mem_origin};
}

/* The submission's launch at size n, deterministic schedule. */
static gl_run_opts sub_opts(const grade_env *g, int64_t n)
{
    int metric_here = 0;
    for (int k = 0; k < g->e->nchecks; k++)
        metric_here |=
            g->e->checks[k].kind == GL_CHECK_METRIC && uses_size(&g->e->checks[k], g->e, n);
    return (gl_run_opts){.step_limit = g->step_limit,
                         .metrics = g->traced && metric_here,
                         .compile = g->sim_compile,
                         .regs = g->sub->regs,
                         .regs_why = g->sub->regs_why,
                         .memory_limit = g->mem_limit,
                         .memory_limit_origin = g->mem_origin,
                         .sandbox = g->sandboxed};
}

/* The submission's debug build's launch. */
static gl_run_opts dbg_opts(const grade_env *g)
{
    return (gl_run_opts){.step_limit = g->step_limit,
                         .compile = g->sim_compile,
                         .memory_limit = g->mem_limit,
                         .memory_limit_origin = g->mem_origin,
                         .sandbox = g->sandboxed};
}

/* The submission's launch under random schedule s (from 0). */
static gl_run_opts sched_opts(const grade_env *g, int s)
{
    const uint64_t seed = (g->seed + 1) * 0x9e3779b97f4a7c15ull + (uint64_t)s * 7919u;
    return (gl_run_opts){.step_limit = g->step_limit,
                         .schedule_random = seed != 0,
                         .schedule_seed = seed,
                         .compile = g->sim_compile,
                         .memory_limit = g->mem_limit,
                         .memory_limit_origin = g->mem_origin,
                         .sandbox = g->sandboxed};
}

/* The random schedules size n runs under when its deterministic run finished: the most
 * seeds of its random_schedule checks, else 1 for no_races; -1: none at all. */
static int sched_count(const gl_exercise *e, int64_t n)
{
    int seeds = 0;
    if (wanted(e, GL_CHECK_RANDOM_SCHEDULE, n, &seeds))
        return seeds;
    return wanted(e, GL_CHECK_NO_RACES, n, NULL) ? 1 : -1;
}

/* One simulator run of a grading as a job of a worker pool (gl_grade_opts.jobs). */
typedef struct sim_job {
    const gl_spec *spec;
    const ptx_module_t *m;
    gl_run_opts opts;
} sim_job;

/* A size's runs: its reference's, its submission's (deterministic schedule), its debug
 * build's and its first random schedule's (the others follow it): the index of its job,
 * -1 for none; and how many random schedules it has. */
enum { RUN_REF, RUN_GOT, RUN_DBG, RUN_SCHED, RUN_NSCHED, RUN_KINDS };

/* Every run a grading may make, made ahead in worker processes: grade_exercise then
 * takes each one's result where it would have run it, in the same order, so the report
 * is the one it makes alone. Runs it turns out not to need (after a size that hit the
 * step limit, the random schedules of a run that stopped) are cancelled or left over. */
typedef struct grade_jobs {
    gl_pool *pool; /* NULL: every run in this process */
    sim_job *jobs;
    int njobs;
    gl_spec *specs; /* the reference's and the submission's spec of each size (owned) */
    int nspecs;
    int (*at)[RUN_KINDS]; /* per size */
    int nsizes;           /* sizes listed in at */
} grade_jobs;

/* The messages a run's worker sends: its buffers as they are, then the rest of the run
 * in runtime/wire.h's codec. */
enum {
    JOB_MSG_BUFFER = 1, /* arg: the argument; payload: the buffer's bytes */
    JOB_MSG_NO_DATA,    /* arg: the argument; payload: its size_t bytes (no data) */
    JOB_MSG_RUN,        /* payload: a job_out (put_job_out) */
};

/* The most bytes a run's message announces besides a buffer, which may be as large as
 * it is (findings are at most 100, a run's own message 8 KiB). */
#define GRADE_MSG_MAX ((uint64_t)256 << 20)

/* A run's result and grade_sim's status and error, as a worker sends it. */
typedef struct job_out {
    gl_status st;
    const sim_run *r;
    const gl_error *err;
} job_out;

static void put_job_out(gl_wire_out *w, const void *obj)
{
    const job_out *o = obj;
    const sim_run *r = o->r;
    gl_wire_put_status(w, o->st, NULL);
    gl_wire_put_status(w, o->err->status, o->err->msg);
    gl_wire_put_status(w, r->status, r->error);
    gl_wire_put_u64(w, r->buffers != NULL);
    gl_wire_put_u64(w, (uint64_t)r->nargs);
    gl_wire_put_fault(w, &r->fault);
    gl_wire_put_findings(w, r->findings, r->nfindings);
    gl_wire_put_bytes(w, &r->stats, sizeof r->stats);
    gl_wire_put_bytes(w, &r->counts, sizeof r->counts);
    gl_wire_put_u64(w, r->block_write_max);
    gl_wire_put_u64(w, (uint64_t)r->traced);
    gl_wire_put_bytes(w, &r->occupancy, sizeof r->occupancy);
}

/* The worker's side (a gl_pool body): runs job `job` and sends its result. */
static void job_body(int fd, int job, void *ctx)
{
    const grade_jobs *J = ctx;
    const sim_job *j = &J->jobs[job];
    sim_run *r = calloc(1, sizeof *r);
    gl_error *err = calloc(1, sizeof *err);
    if (!r || !err)
        _exit(1);
    const gl_status st = grade_sim(j->spec, j->m, &j->opts, r, err);
    int ok = 1;
    for (int a = 0; ok && r->buffers && a < r->nargs; a++) {
        const gl_buffer *b = &r->buffers[a];
        ok = b->data
                 ? gl_child_send(fd, JOB_MSG_BUFFER, (uint32_t)a, b->data, b->bytes) == 0
                 : gl_child_send(fd, JOB_MSG_NO_DATA, (uint32_t)a, &b->bytes, sizeof b->bytes) == 0;
    }
    ok = ok && gl_wire_send(fd, JOB_MSG_RUN, 0, put_job_out, &(job_out){st, r, err}) == 0;
    _exit(ok ? 0 : 1);
}

/* A worker's result into *r and *err, with the status grade_sim returned there; -1 when
 * it sent none whole, or one that does not decode (r is then empty). */
static int job_take(gl_pool_result *res, sim_run *r, gl_status *st, gl_error *err)
{
    memset(r, 0, sizeof *r);
    const gl_child_msg *last = res && res->nmsgs ? &res->msgs[res->nmsgs - 1] : NULL;
    if (!last || last->h.type != JOB_MSG_RUN)
        return -1;
    gl_wire_in in = gl_wire_in_of(last->data, (size_t)last->h.len);
    gl_status status;
    gl_error e;
    gl_wire_get_status(&in, &status, NULL, 0);
    gl_wire_get_status(&in, &e.status, e.msg, sizeof e.msg);
    gl_wire_get_status(&in, &r->status, r->error, sizeof r->error);
    const uint64_t has_buffers = gl_wire_get_u64(&in), nargs = gl_wire_get_u64(&in);
    gl_wire_get_fault(&in, &r->fault);
    gl_wire_get_findings(&in, &r->findings, &r->nfindings);
    gl_wire_get_bytes(&in, &r->stats, sizeof r->stats);
    gl_wire_get_bytes(&in, &r->counts, sizeof r->counts);
    r->block_write_max = gl_wire_get_u64(&in);
    r->traced = (int)gl_wire_get_u64(&in);
    gl_wire_get_bytes(&in, &r->occupancy, sizeof r->occupancy);
    r->occupancy.limiter[sizeof r->occupancy.limiter - 1] = '\0';
    r->occupancy.regs_why[sizeof r->occupancy.regs_why - 1] = '\0';
    int ok = in.ok && in.p == in.end && has_buffers <= 1 && nargs <= 4096;
    const int n = ok && has_buffers ? (int)nargs : 0;
    gl_buffer *bufs = n > 0 ? calloc((size_t)n, sizeof *bufs) : NULL;
    ok = ok && (n == 0 || bufs);
    for (int i = 0; ok && i < res->nmsgs - 1; i++) {
        gl_child_msg *m = &res->msgs[i];
        const uint32_t a = m->h.arg;
        switch (m->h.type) {
        case JOB_MSG_BUFFER:
            ok = a < (uint32_t)n && !bufs[a].data;
            if (ok) {
                bufs[a].bytes = (size_t)m->h.len;
                bufs[a].data = gl_child_msg_take(m);
                ok = bufs[a].data != NULL;
            }
            break;
        case JOB_MSG_NO_DATA:
            ok = a < (uint32_t)n && m->h.len == sizeof bufs[a].bytes;
            if (ok)
                memcpy(&bufs[a].bytes, m->data, sizeof bufs[a].bytes);
            break;
        default: ok = 0;
        }
    }
    if (!ok) {
        spec_buffers_free(bufs, n);
        sim_run_free(r);
        return -1;
    }
    r->buffers = bufs;
    r->nargs = (int)nargs;
    *st = status;
    if (err)
        *err = e;
    return 0;
}

/* Lists every run grade_exercise may make for sizes[0..nsizes) (with inputs[]), in its
 * order, and starts a pool of `workers` for them. A spec that cannot be made ends the
 * list there (grade_exercise meets the same error there itself). On any failure J has
 * no pool, and every run is made in this process. */
static void jobs_plan(grade_jobs *J, int workers, const gl_lesson *l, const grade_env *g,
                      const ptx_module_t *ref_m, const ptx_module_t *sub_m,
                      const ptx_module_t *dbg_m, const char *sub_path, const int64_t *sizes,
                      const gl_inputs *inputs, int nsizes, uint64_t seed_base)
{
    memset(J, 0, sizeof *J);
    const gl_exercise *e = g->e;
    int most = 0; /* jobs at most */
    for (int i = 0; i < nsizes; i++) {
        const int seeds = sched_count(e, sizes[i]);
        most += 3 + (seeds > 0 ? seeds : 0);
    }
    J->jobs = calloc((size_t)most + 1, sizeof *J->jobs);
    J->specs = calloc((size_t)nsizes * 2 + 1, sizeof *J->specs);
    J->at = calloc((size_t)nsizes + 1, sizeof *J->at);
    if (!J->jobs || !J->specs || !J->at)
        return;
    uint64_t largest = 0; /* the largest buffer: the largest message a worker sends */
    for (int i = 0; i < nsizes; i++) {
        int *at = J->at[i];
        for (int k = 0; k < RUN_NSCHED; k++)
            at[k] = -1;
        gl_error ignored;
        gl_spec *rs = &J->specs[J->nspecs];
        if (lesson_exercise_spec_variant(l, sizes[i], seed_base + (uint64_t)i, inputs[i],
                                         e->reference, rs, &ignored) != GL_OK)
            break;
        J->nspecs++;
        at[RUN_REF] = J->njobs;
        J->jobs[J->njobs++] = (sim_job){rs, ref_m, ref_opts(g, sizes[i], inputs[i])};
        J->nsizes = i + 1;
        gl_spec *ss = &J->specs[J->nspecs];
        if (lesson_exercise_spec_variant(l, sizes[i], seed_base + (uint64_t)i, inputs[i], sub_path,
                                         ss, &ignored) != GL_OK)
            break;
        J->nspecs++;
        for (int a = 0; a < ss->nargs; a++) {
            const uint64_t b = (uint64_t)ss->args[a].len * spec_type_size(ss->args[a].type);
            largest = b > largest ? b : largest;
        }
        at[RUN_GOT] = J->njobs;
        J->jobs[J->njobs++] = (sim_job){ss, sub_m, sub_opts(g, sizes[i])};
        if (dbg_m && !inputs[i]) {
            at[RUN_DBG] = J->njobs;
            J->jobs[J->njobs++] = (sim_job){ss, dbg_m, dbg_opts(g)};
        }
        at[RUN_SCHED] = J->njobs;
        for (int s = 0; s < sched_count(e, sizes[i]); s++, at[RUN_NSCHED]++)
            J->jobs[J->njobs++] = (sim_job){ss, sub_m, sched_opts(g, s)};
    }
    const gl_pool_opts po = {.workers = workers,
                             .njobs = J->njobs,
                             .body = job_body,
                             .ctx = J,
                             .max_message = largest > GRADE_MSG_MAX ? largest : GRADE_MSG_MAX};
    J->pool = J->njobs ? gl_pool_new(&po) : NULL;
}

/* Ends the workers still running: the runs left are not needed. */
static void jobs_stop(grade_jobs *J)
{
    gl_pool_free(J->pool);
    J->pool = NULL;
}

static void jobs_free(grade_jobs *J)
{
    jobs_stop(J);
    for (int i = 0; i < J->nspecs; i++)
        spec_free(&J->specs[i]);
    free(J->specs);
    free(J->jobs);
    free(J->at);
    memset(J, 0, sizeof *J);
}

/* The job of size i's run `kind` (RUN_SCHED: random schedule s), -1 when none. */
static int job_of(const grade_jobs *J, int i, int kind, int s)
{
    if (!J->pool || i >= J->nsizes)
        return -1;
    if (kind != RUN_SCHED)
        return J->at[i][kind];
    return s < J->at[i][RUN_NSCHED] ? J->at[i][RUN_SCHED] + s : -1;
}

/* grade_sim of size i's run `kind` (job_of): the worker's result when it has one, else
 * made here (every run in this process with --jobs 1; a worker that ended without a
 * result, killed or out of memory, gets its run made again here). */
static gl_status grade_run(grade_jobs *J, int i, int kind, int s, const gl_spec *spec,
                           const ptx_module_t *m, const gl_run_opts *o, sim_run *r, gl_error *err)
{
    const int job = job_of(J, i, kind, s);
    gl_status st;
    if (job >= 0 && job_take(gl_pool_wait(J->pool, job), r, &st, err) == 0)
        return st;
    return grade_sim(spec, m, o, r, err);
}

gl_status grade_exercise(const gl_lesson *l, const char *submission, const gl_grade_opts *opts,
                         gl_grade_report *rep, gl_error *err)
{
    memset(rep, 0, sizeof *rep);
    gl_grade_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    const gl_exercise *e = l->exercise;
    if (!e)
        return gl_fail(err, GL_ERR_INPUT, "lesson '%s' has no exercise to grade", l->id);
    if (e->program && !opts->compile.program) { /* compile.program: its kernel's matrix */
        const gl_status pst = grade_program_exercise(l, submission, opts, rep, err);
        if (pst == GL_OK)
            grade_report_set_points(rep, e);
        return pst;
    }
    snprintf(rep->lesson, sizeof rep->lesson, "%s", l->id);
    snprintf(rep->submission, sizeof rep->submission, "%s",
             gl_display_path(submission ? submission : e->starter));
    gl_backend_kind backend = opts->backend == GL_BACKEND_GPU ? GL_BACKEND_GPU : GL_BACKEND_SIM;
    rep->seed = opts->seed_given ? opts->seed : grade_new_seed();
    /* every size's inputs differ from every other size's and every other seed's */
    const uint64_t seed_base = rep->seed * 64;
    snprintf(rep->backend, sizeof rep->backend, "%s", gl_run_backend_name(backend));
    /* the limits of every launch (backend.h), unless the exercise sets a tighter one */
    uint64_t step_limit = e->step_limit ? e->step_limit : GL_STEP_LIMIT_DEFAULT;
    const uint64_t mem_limit = opts->memory_limit ? opts->memory_limit
                               : e->memory_limit  ? e->memory_limit
                                                  : GL_MEMORY_LIMIT_GRADE;
    const char *mem_origin = opts->memory_limit ? "--memory-limit"
                             : e->memory_limit  ? "\"memory_limit\" of the exercise"
                                                : "the grader's default; --memory-limit sets it";

    /* the target: --arch, else the exercise's "arch", else the default: for the simulator
     * its default profile, for the GPU its own (compute_XY of its capability) */
    gl_grade_opts chosen = *opts;
    if (!chosen.compile.arch || !*chosen.compile.arch) {
        chosen.compile.arch = lesson_exercise_arch(l);
        chosen.compile.arch_origin = chosen.compile.arch ? "\"arch\" of the lesson" : NULL;
    }
    opts = &chosen;
    const sim_device_model *sim_target =
        opts->compile.arch ? sim_device_find(opts->compile.arch) : sim_device();
    if (!sim_target)
        return gl_fail(err, GL_ERR_USAGE, "%s: the simulator models no such target",
                       opts->compile.arch);
    /* the simulator's runs model the target (gl_run_profile) */
    const gl_compile_opts sim_compile = {.arch = sim_target->name,
                                         .arch_origin = opts->compile.arch_origin};
    char gpu_arch[32] = "";
    if (backend == GL_BACKEND_GPU && opts->compile.arch)
        snprintf(gpu_arch, sizeof gpu_arch, "%s", opts->compile.arch);
    else if (backend == GL_BACKEND_GPU) {
        gl_device_info info;
        char note[256];
        gl_status gs = gl_run_device_query(GL_BACKEND_GPU, &info, note, sizeof note, err);
        if (gs != GL_OK)
            return gs;
        snprintf(gpu_arch, sizeof gpu_arch, "compute_%d%d", info.compute_major, info.compute_minor);
    }
    char *sub_path = strdup(submission ? submission : e->starter), *sub_src = NULL;
    gl_compiled ref = {0}, sub = {0}, sub_gpu = {0}, sub_dbg = {0};
    ptx_module_t *ref_m = NULL, *sub_m = NULL, *dbg_m = NULL;
    size_run *runs = NULL;
    int nruns = 0;
    int traced = 0;
    grade_jobs J = {0}; /* the runs in worker processes (opts->jobs > 1) */
    for (int i = 0; i < e->nchecks; i++)
        traced |= e->checks[i].kind == GL_CHECK_METRIC;
    gl_compile_opts sub_compile = opts->compile;
    sub_compile.sandbox = rep->sandboxed = !opts->no_sandbox && gl_sandbox_available() > 0;
    /* the submission is read once, here (or by the caller: a program exercise's kernel,
     * opts->compile.source), and every build compiles these bytes: a file swapped for a
     * link or another file after this read changes nothing */
    if (opts->compile.source && (sub_src = malloc(opts->compile.source_len + 1))) {
        memcpy(sub_src, opts->compile.source, opts->compile.source_len);
        sub_src[opts->compile.source_len] = '\0';
    } else if (!opts->compile.source) {
        sub_src = gl_read_submission(sub_path, &sub_compile.source_len, err);
    }
    if (!sub_src) {
        const gl_status rs = opts->compile.source ? gl_fail(err, GL_ERR_NOMEM, "out of memory")
                             : err                ? err->status
                                                  : GL_ERR_INPUT;
        free(sub_path);
        return rs;
    }
    sub_compile.source = sub_src;
    /* the optimised build and the debug build (-G / -O0, for the memory checks) at once,
     * each in its sandbox, while the reference compiles here; without a debug build (it
     * does not compile, or the simulator cannot load it) those checks see the optimised
     * build */
    gl_compile_opts dbg_compile = sub_compile;
    dbg_compile.debug = 1;
    gl_compile_job *sub_job = gl_compile_start(sub_path, &sub_compile),
                   *dbg_job = gl_compile_start(sub_path, &dbg_compile), *gpu_job = NULL;
    /* and, for a grading on the GPU, its build for the GPU's target: a third compiler at
     * once, where it used to start once the others had ended */
    gl_compile_opts gpu_compile = sub_compile;
    gpu_compile.arch = gpu_arch;
    if (*gpu_arch)
        gpu_job = gl_compile_start(sub_path, &gpu_compile);
    gl_compile_opts ref_compile = opts->compile;
    ref_compile.source = NULL, ref_compile.source_len = 0; /* the submission's bytes */
    gl_status st = gl_compile_cuda(e->reference, &ref_compile, &ref, err);
    if (st != GL_OK) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        st = gl_fail(err, GL_ERR_INPUT, "%s: the reference solution does not compile:\n%s", l->dir,
                     msg);
        goto done;
    }
    char diag[2048] = "";
    ref_m = parse_ptx(ref.ptx, e->reference, diag, sizeof diag);
    if (!ref_m) {
        st = gl_fail(err, GL_ERR_INPUT, "%s: the reference's PTX does not load: %s", l->dir, diag);
        goto done;
    }

    rep->nchecks = e->nchecks + 1;
    rep->checks = calloc((size_t)rep->nchecks, sizeof *rep->checks);
    if (!rep->checks) {
        st = gl_fail(err, GL_ERR_NOMEM, "out of memory");
        goto done;
    }
    gl_check_result *compiles = &rep->checks[0];
    snprintf(compiles->name, sizeof compiles->name, "compiles");
    for (int i = 0; i < e->nchecks; i++)
        snprintf(rep->checks[i + 1].name, sizeof rep->checks[i + 1].name, "%s", e->checks[i].name);
    gl_error cerr = {0};
    const char *not_run = NULL;
    gl_status sub_st = sub_job ? gl_compile_finish(sub_job, &sub, &cerr)
                               : gl_fail(&cerr, GL_ERR_NOMEM, "out of memory");
    sub_job = NULL;
    if (dbg_job) {
        gl_error derr = {0};
        char ddiag[512];
        if (gl_compile_finish(dbg_job, &sub_dbg, &derr) == GL_OK && sub_st == GL_OK)
            dbg_m = parse_ptx(sub_dbg.ptx, sub_path, ddiag, sizeof ddiag);
        dbg_job = NULL;
    }
    if (sub_st != GL_OK) {
        if (cerr.status != GL_ERR_COMPILE) {
            st = gl_fail(err, cerr.status, "%s", cerr.msg);
            goto done;
        }
        rep->compile_log = strdup(cerr.msg);
        rep->diags = sub.diags, rep->ndiags = sub.ndiags;
        sub.diags = NULL;
        snprintf(compiles->detail, sizeof compiles->detail, "%.2000s", cerr.msg);
        not_run = "not run: the kernel does not compile";
    } else if (!(sub_m = parse_ptx(sub.ptx, sub_path, diag, sizeof diag))) {
        rep->compile_log = strdup(diag);
        snprintf(compiles->detail, sizeof compiles->detail,
                 "the simulator cannot run this kernel's PTX: %.1900s", diag);
        not_run = "not run: the simulator cannot load the kernel";
    } else if (gl_arch_check_ptx_features(sub_m, ptx_module_target_sm(sub_m), sub_path,
                                          opts->compile.arch_origin, &cerr) != GL_OK) {
        rep->compile_log = strdup(cerr.msg);
        snprintf(compiles->detail, sizeof compiles->detail, "%.2000s", cerr.msg);
        not_run = "not run: the kernel does not compile";
    }
    if (not_run) {
        for (int i = 0; i < e->nchecks; i++) {
            snprintf(rep->checks[i + 1].detail, sizeof rep->checks[i + 1].detail, "%s", not_run);
            rep->checks[i + 1].not_run = 1;
        }
        goto done;
    }
    if (*gpu_arch) {
        const gl_status gpu_st = gpu_job ? gl_compile_finish(gpu_job, &sub_gpu, &cerr)
                                         : gl_fail(&cerr, GL_ERR_NOMEM, "out of memory");
        gpu_job = NULL;
        if (gpu_st != GL_OK) {
            rep->compile_log = strdup(cerr.msg);
            rep->diags = sub_gpu.diags, rep->ndiags = sub_gpu.ndiags;
            sub_gpu.diags = NULL;
            snprintf(compiles->detail, sizeof compiles->detail, "for the GPU (%s): %.1900s",
                     gpu_arch, cerr.msg);
            for (int i = 0; i < e->nchecks; i++) {
                snprintf(rep->checks[i + 1].detail, sizeof rep->checks[i + 1].detail,
                         "not run: the kernel does not compile for the GPU");
                rep->checks[i + 1].not_run = 1;
            }
            goto done;
        }
    }
    rep->compiled = 1;
    compiles->passed = 1;
    if (*gpu_arch)
        snprintf(compiles->detail, sizeof compiles->detail,
                 "compiled with %s (%s for the simulator, %s for the GPU)",
                 gl_compiler_name(sub.used), sim_target->name, gpu_arch);
    else
        snprintf(compiles->detail, sizeof compiles->detail, "compiled with %s for %s",
                 gl_compiler_name(sub.used), sim_target->name);

    /* every graded size with the lesson's random inputs, then the largest of the
     * exercise's sizes with each set of adversarial inputs: every input the largest
     * allowed, the smallest, few values, then each set the lesson declares (lesson.h
     * gl_inputs) */
    enum { MAX_RUNS = 64 + GL_INPUTS_DECLARED - 1 + GL_INPUTS_MAX_DECLARED };
    int64_t sizes[MAX_RUNS];
    gl_inputs inputs[MAX_RUNS] = {0};
    int nsizes = grade_sizes(e, sizes, 64);
    if (lesson_exercise_has_random(l) && e->nsizes > 0) {
        int64_t largest = e->sizes[0];
        for (int i = 1; i < e->nsizes; i++)
            largest = e->sizes[i] > largest ? e->sizes[i] : largest;
        const int last = GL_INPUTS_DECLARED + lesson_exercise_declared_inputs(l);
        for (int v = GL_INPUTS_ALL_MAX; v < last && nsizes < MAX_RUNS; v++) {
            sizes[nsizes] = largest;
            inputs[nsizes++] = (gl_inputs)v;
        }
    }
    runs = calloc((size_t)nsizes, sizeof *runs);
    if (!runs) {
        st = gl_fail(err, GL_ERR_NOMEM, "out of memory");
        goto done;
    }
    const grade_env env = {.e = e,
                           .step_limit = step_limit,
                           .mem_limit = mem_limit,
                           .mem_origin = mem_origin,
                           .sim_compile = sim_compile,
                           .ref = &ref,
                           .sub = &sub,
                           .sandboxed = rep->sandboxed,
                           .traced = traced,
                           .seed = rep->seed};
    if (opts->jobs > 1)
        jobs_plan(&J, opts->jobs, l, &env, ref_m, sub_m, dbg_m, sub_path, sizes, inputs, nsizes,
                  seed_base);
    for (int i = 0; i < nsizes; i++) {
        size_run *r = &runs[i];
        char words[sizeof r->label - 24];
        nruns++;
        r->n = sizes[i];
        r->inputs = inputs[i];
        lesson_exercise_inputs_label(l, r->inputs, words, sizeof words);
        snprintf(r->label, sizeof r->label, "%lld%s", (long long)r->n, words);
        gl_spec ref_spec;
        st = lesson_exercise_spec_variant(l, r->n, seed_base + (uint64_t)i, r->inputs, e->reference,
                                          &ref_spec, err);
        if (st != GL_OK)
            goto done;
        const gl_run_opts ref_cfg = ref_opts(&env, r->n, r->inputs);
        gl_error rerr = {0};
        st = grade_run(&J, i, RUN_REF, 0, &ref_spec, ref_m, &ref_cfg, &r->expect, &rerr);
        spec_free(&ref_spec);
        if (st != GL_OK || r->expect.status != GL_OK) {
            st = gl_fail(err, GL_ERR_INPUT, "%s: the reference solution fails at n = %s: %s",
                         l->dir, r->label, st != GL_OK ? rerr.msg : r->expect.error);
            goto done;
        }
        st = lesson_exercise_spec_variant(l, r->n, seed_base + (uint64_t)i, r->inputs, sub_path,
                                          &r->spec, err);
        if (st != GL_OK)
            goto done;
        /* The simulator always runs the submission: only it sees out-of-bounds
         * accesses that a GPU lets pass. */
        const gl_run_opts sub_cfg = sub_opts(&env, r->n);
        gl_error serr = {0};
        if (grade_run(&J, i, RUN_GOT, 0, &r->spec, sub_m, &sub_cfg, &r->got, &serr) != GL_OK) {
            /* The submission does not fit the exercise (renamed kernel, changed
             * parameters): a failed grade, reported under "compiles". */
            compiles->passed = 0;
            snprintf(compiles->detail, sizeof compiles->detail, "%.2000s", serr.msg);
            for (int k = 0; k < e->nchecks; k++) {
                snprintf(rep->checks[k + 1].detail, sizeof rep->checks[k + 1].detail,
                         "not run: the kernel does not match the exercise");
                rep->checks[k + 1].not_run = 1;
            }
            goto done;
        }
        if (r->got.fault.kind == GL_FAULT_STEP_LIMIT) {
            jobs_stop(&J); /* the larger sizes' runs are not needed */
            /* An endless loop: larger sizes would only loop longer. Their checks fail
             * with the same message. */
            for (int j = i + 1; j < nsizes; j++) {
                size_run *q = &runs[j];
                nruns++;
                q->n = sizes[j];
                q->inputs = inputs[j];
                lesson_exercise_inputs_label(l, q->inputs, words, sizeof words);
                snprintf(q->label, sizeof q->label, "%lld%s", (long long)q->n, words);
                if (lesson_exercise_spec_variant(l, q->n, seed_base + (uint64_t)j, q->inputs,
                                                 sub_path, &q->spec, err) != GL_OK ||
                    spec_buffers_new(&q->spec, &q->expect.buffers, err) != GL_OK ||
                    spec_buffers_new(&q->spec, &q->got.buffers, err) != GL_OK) {
                    st = err->status;
                    goto done;
                }
                q->expect.nargs = q->got.nargs = q->spec.nargs;
                q->skipped = 1;
                q->got.fault = r->got.fault;
                q->got.status = r->got.status;
                snprintf(q->got.error, sizeof q->got.error,
                         "not run: the kernel already "
                         "exceeded the step limit at n = %s",
                         r->label);
            }
            break;
        }
        if (dbg_m && !r->inputs) {
            const gl_run_opts dbg_cfg = dbg_opts(&env);
            gl_error derr = {0};
            r->have_dbg =
                grade_run(&J, i, RUN_DBG, 0, &r->spec, dbg_m, &dbg_cfg, &r->dbg, &derr) == GL_OK;
        }
        const int seeds = sched_count(e, r->n);
        if (r->got.status == GL_OK && seeds >= 0) {
            r->sched = calloc((size_t)seeds, sizeof *r->sched);
            for (int s = 0; r->sched && s < seeds; s++) {
                const gl_run_opts rc = sched_opts(&env, s);
                if (grade_run(&J, i, RUN_SCHED, s, &r->spec, sub_m, &rc, &r->sched[s], &serr) !=
                    GL_OK)
                    break;
                r->nsched++;
            }
        } else {
            for (int s = 0; s < seeds; s++) /* not needed */
                gl_pool_cancel(J.pool, job_of(&J, i, RUN_SCHED, s));
        }
        /* On the GPU only a kernel the simulator ran cleanly: a faulting one could
         * corrupt GPU memory or hang. */
        if (backend == GL_BACKEND_GPU && r->got.status == GL_OK) {
            gl_run_opts go = {.backend = GL_BACKEND_GPU};
            gl_error gerr = {0};
            r->on_gpu = 1;
            r->gpu_status = gl_run_ptx(&r->spec, sub_gpu.ptx, &go, &r->got_gpu, &gerr);
            if (r->gpu_status != GL_OK)
                snprintf(r->gpu_error, sizeof r->gpu_error, "%s", gerr.msg);
            if (r->gpu_status == GL_ERR_NODEVICE) {
                st = gl_fail(err, r->gpu_status, "%s", gerr.msg);
                goto done;
            }
        }
    }
    jobs_stop(&J);
    for (int i = 0; i < e->nchecks; i++)
        run_check(e, &e->checks[i], runs, nruns, &rep->checks[i + 1]);
    rep->passed = 1;
    for (int i = 0; i < rep->nchecks; i++)
        rep->passed &= rep->checks[i].passed;

done:
    if (sub_job) { /* a grading that stopped before its builds were collected */
        gl_compiled unused;
        gl_compile_finish(sub_job, &unused, NULL);
        gl_compiled_free(&unused);
    }
    if (dbg_job) {
        gl_compiled unused;
        gl_compile_finish(dbg_job, &unused, NULL);
        gl_compiled_free(&unused);
    }
    if (gpu_job) {
        gl_compiled unused;
        gl_compile_finish(gpu_job, &unused, NULL);
        gl_compiled_free(&unused);
    }
    jobs_free(&J);
    for (int i = 0; i < nruns; i++) {
        spec_free(&runs[i].spec);
        sim_run_free(&runs[i].expect);
        sim_run_free(&runs[i].got);
        sim_run_free(&runs[i].dbg);
        for (int s = 0; s < runs[i].nsched; s++)
            sim_run_free(&runs[i].sched[s]);
        free(runs[i].sched);
        gl_run_result_free(&runs[i].got_gpu);
    }
    free(runs);
    ptx_module_free(ref_m);
    ptx_module_free(sub_m);
    gl_compiled_free(&ref);
    gl_compiled_free(&sub);
    gl_compiled_free(&sub_gpu);
    gl_compiled_free(&sub_dbg);
    ptx_module_free(dbg_m);
    free(sub_path);
    free(sub_src);
    if (st != GL_OK) { /* an error leaves no checks behind: the caller frees nothing */
        free(rep->compile_log);
        free(rep->diags);
        free(rep->checks);
        rep->compile_log = NULL;
        rep->diags = NULL;
        rep->ndiags = 0;
        rep->checks = NULL;
        rep->nchecks = 0;
        rep->passed = 0;
    } else if (!opts->compile.program) {
        grade_report_set_points(rep, e);
    }
    return st;
}

void grade_report_set_points(gl_grade_report *r, const gl_exercise *e)
{
    for (int i = 0; i < r->nchecks; i++)
        r->checks[i].points = lesson_check_points(e, r->checks[i].name);
}

int grade_report_score(const gl_grade_report *r, int *max)
{
    int score = 0, all = 0;
    for (int i = 0; i < r->nchecks; i++) {
        all += r->checks[i].points;
        score += r->checks[i].passed ? r->checks[i].points : 0;
    }
    if (max)
        *max = all;
    return score;
}

/* Report text comes from the submission (its name, compiler messages quoting its lines):
 * it reaches a terminal escaped (gl_escape_term), so it can forge no line and send no
 * escape sequence. */
void grade_report_write_text(FILE *f, const gl_grade_report *r)
{
    int passed = 0;
    fputs("Grading ", f);
    gl_fputs_term(f, r->submission, 0);
    fprintf(f,
            " for lesson '%s' (on the %s; random inputs from seed %llu: --seed %llu "
            "repeats them)\n",
            r->lesson, strcmp(r->backend, "gpu") == 0 ? "GPU and the simulator" : "simulator",
            (unsigned long long)r->seed, (unsigned long long)r->seed);
    for (int i = 0; i < r->nchecks; i++) {
        const gl_check_result *c = &r->checks[i];
        passed += c->passed;
        fprintf(f, "  %-7s  ", c->passed ? "PASS" : c->not_run ? "NOT RUN" : "FAIL");
        gl_fputs_term(f, c->name, 0);
        fputc('\n', f);
        const char *line = c->detail;
        while (*line) {
            const char *nl = strchr(line, '\n');
            size_t len = nl ? (size_t)(nl - line) : strlen(line);
            char one[sizeof c->detail];
            snprintf(one, sizeof one, "%.*s", (int)len, line);
            fputs("        ", f);
            gl_fputs_term(f, one, GL_ESC_LINES); /* tabs kept: a compiler's excerpt */
            fputc('\n', f);
            line += len + (nl ? 1 : 0);
        }
    }
    int max;
    const int score = grade_report_score(r, &max);
    fprintf(f, "%s: %d of %d checks passed\nScore: %d of %d point%s\n",
            r->passed ? "PASSED" : "FAILED", passed, r->nchecks, score, max, max == 1 ? "" : "s");
}

uint64_t grade_new_seed(void)
{
    /* GPULEARN_GRADE_SEED: every grading without --seed uses this one (a walk through
     * the TUI's screens compared before and after a change: tools/tui_capture.sh) */
    const char *fixed = getenv("GPULEARN_GRADE_SEED");
    if (fixed && *fixed) {
        char *end = NULL;
        const unsigned long long v = strtoull(fixed, &end, 10);
        if (!*end && fixed[0] != '-' && v <= 0xffffffffull)
            return v;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x =
        (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
    x = (x ^ (x >> 31)) * 0x7fb5d329728ea185ull; /* mixed, then cut to 32 bits: short to type */
    return (x ^ (x >> 27)) & 0xffffffffull;
}

const char *grade_check_status(const gl_check_result *c)
{
    return c->passed ? "pass" : c->not_run ? "not_run" : "fail";
}

/* obj[key] = s as valid UTF-8 (gl_utf8_clean: a byte that is not is U+FFFD), so that the
 * JSON is valid whatever bytes a submission's name or messages hold. */
static void add_text(cJSON *obj, const char *key, const char *s)
{
    char *clean = gl_utf8_clean(s);
    cJSON_AddStringToObject(obj, key, clean ? clean : "");
    free(clean);
}

cJSON *grade_report_to_json(const gl_grade_report *r)
{
    cJSON *js = cJSON_CreateObject();
    add_text(js, "lesson", r->lesson);
    add_text(js, "submission", r->submission);
    add_text(js, "backend", r->backend);
    cJSON_AddBoolToObject(js, "passed", r->passed);
    cJSON_AddBoolToObject(js, "compiled", r->compiled);
    cJSON_AddNumberToObject(js, "seed", (double)r->seed);
    cJSON_AddBoolToObject(js, "sandboxed", r->sandboxed);
    int max;
    cJSON_AddNumberToObject(js, "score", grade_report_score(r, &max));
    cJSON_AddNumberToObject(js, "max_score", max);
    cJSON *checks = cJSON_AddArrayToObject(js, "checks");
    for (int i = 0; i < r->nchecks; i++) {
        cJSON *c = cJSON_CreateObject();
        add_text(c, "name", r->checks[i].name);
        cJSON_AddBoolToObject(c, "passed", r->checks[i].passed);
        cJSON_AddStringToObject(c, "status", grade_check_status(&r->checks[i]));
        cJSON_AddNumberToObject(c, "points", r->checks[i].points);
        add_text(c, "detail", r->checks[i].detail);
        cJSON_AddItemToArray(checks, c);
    }
    return js;
}

void grade_report_write_json(FILE *f, const gl_grade_report *r)
{
    cJSON *js = grade_report_to_json(r);
    char *text = js ? cJSON_Print(js) : NULL;
    if (text)
        fprintf(f, "%s\n", text);
    free(text);
    cJSON_Delete(js);
}

/* XML 1.0 character data (§2.2 Char) from any bytes: &, <, >, " escaped; a byte that
 * is not valid UTF-8, and U+FFFE and U+FFFF, as U+FFFD; the control characters XML
 * forbids (all below 0x20 but tab, newline and carriage return) shown as C escapes in
 * text ("\033", as on a terminal): the document is well-formed whatever a submission's
 * name or messages hold. */
static void xml_text(FILE *f, const char *s)
{
    while (*s) {
        const unsigned char ch = (unsigned char)*s;
        uint32_t cp = 0;
        const int k = gl_utf8_next(s, &cp);
        if (k == 0 || cp == 0xfffe || cp == 0xffff)
            fputs("\xef\xbf\xbd", f);
        else if (ch == '&')
            fputs("&amp;", f);
        else if (ch == '<')
            fputs("&lt;", f);
        else if (ch == '>')
            fputs("&gt;", f);
        else if (ch == '"')
            fputs("&quot;", f);
        else if (ch < 0x20 && ch != '\n' && ch != '\t' && ch != '\r')
            fprintf(f, "\\%03o", ch);
        else
            fwrite(s, 1, (size_t)k, f);
        s += k ? k : 1;
    }
}

void grade_report_write_junit(FILE *f, const gl_grade_report *r)
{
    int failures = 0;
    for (int i = 0; i < r->nchecks; i++)
        failures += !r->checks[i].passed;
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n", f);
    fputs("  <testsuite name=\"gpulearn.", f);
    xml_text(f, r->lesson);
    fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"0\">\n", r->nchecks, failures);
    fputs("    <properties><property name=\"submission\" value=\"", f);
    xml_text(f, r->submission);
    fputs("\"/><property name=\"backend\" value=\"", f);
    xml_text(f, r->backend);
    fprintf(f, "\"/><property name=\"seed\" value=\"%llu", (unsigned long long)r->seed);
    int max;
    const int score = grade_report_score(r, &max);
    fprintf(f, "\"/><property name=\"score\" value=\"%d\"/><property name=\"max_score\" value=\"%d",
            score, max);
    fputs("\"/></properties>\n", f);
    for (int i = 0; i < r->nchecks; i++) {
        const gl_check_result *c = &r->checks[i];
        fputs("    <testcase classname=\"gpulearn.", f);
        xml_text(f, r->lesson);
        fputs("\" name=\"", f);
        xml_text(f, c->name);
        if (c->passed) {
            fputs("\"/>\n", f);
            continue;
        }
        /* a check that could not run counts as failed: a failure of type not_run */
        fprintf(f, "\">\n      <failure type=\"%s\" message=\"", grade_check_status(c));
        const char *nl = strchr(c->detail, '\n');
        char first[512];
        snprintf(first, sizeof first, "%.*s", nl ? (int)(nl - c->detail) : (int)strlen(c->detail),
                 c->detail);
        xml_text(f, first);
        fputs("\">", f);
        xml_text(f, c->detail);
        fputs("</failure>\n    </testcase>\n", f);
    }
    fputs("  </testsuite>\n</testsuites>\n", f);
}

/* Whether every check rep failed is theoretical_occupancy NOT RUN for want of a register
 * count (gl_check_result.regs_unknown): the reference's verdict on a machine without a
 * CUDA Toolkit. */
static int regs_unknown_only(const gl_grade_report *rep)
{
    int n = 0;
    for (int i = 0; i < rep->nchecks; i++)
        if (!rep->checks[i].passed && !(n++, rep->checks[i].regs_unknown))
            return 0;
    return n > 0;
}

int grade_lint(const char *dir, FILE *out)
{
    gl_lesson l;
    gl_error err = {0};
    if (lesson_load(dir, &l, &err) != GL_OK) {
        fprintf(out, "%s\n%s: FAILED (the lesson does not load)\n", err.msg, dir);
        return 1;
    }
    /* the same inputs every lint; lesson files are trusted */
    const gl_grade_opts lint_opts = {.seed_given = 1, .seed = 0, .no_sandbox = 1};
    int problems = 0, gpu_skipped = 0;
    gl_expect_lint_opts eo = {0};
    gl_expect_probe_gpu(&eo);
    for (int s = 0; s < l.nsteps; s++) {
        const gl_step *step = &l.steps[s];
        if (step->program)
            problems += grade_program_lint_step(&l, s, out);
        if (!step->launch)
            continue;
        gl_spec spec;
        gl_error e = {0};
        if (lesson_step_spec(&l, s, &spec, &e) != GL_OK) {
            fprintf(out, "%s/lesson.json: steps[%d]: %s\n", dir, s, e.msg);
            problems++;
            continue;
        }
        if (step->map_value && strncmp(step->map_value, "buffer:", 7) == 0) {
            int a = spec_find_arg(&spec, step->map_value + 7);
            if (a < 0 || !spec.args[a].is_ptr) {
                fprintf(out, "%s/lesson.json: steps[%d].map: no pointer argument named '%s'\n", dir,
                        s, step->map_value + 7);
                problems++;
            }
        }
        spec_free(&spec);
        /* the step runs on the simulator (and on a GPU when there is one), and its text's
         * claims hold there (runtime/expect.h) */
        int skipped = 0;
        problems += gl_expect_lint_step(&l, s, &eo, out, &skipped);
        gpu_skipped += skipped;
    }
    if (gpu_skipped)
        fprintf(out, "%s: SKIP: %d GPU expect entr%s not checked: no GPU here\n", dir, gpu_skipped,
                gpu_skipped == 1 ? "y" : "ies");
    const gl_exercise *ex = l.exercise;
    int ref_regs_unknown = 0; /* the reference's theoretical_occupancy NOT RUN: no ptxas */
    if (ex) {
        if (ex->nhints < 2 || ex->nhints > 3) {
            fprintf(out, "%s/lesson.json: exercise.hints: %d hints; a lesson gives 2 or 3\n", dir,
                    ex->nhints);
            problems++;
        }
        gl_grade_report rep;
        gl_error e = {0};
        if (grade_exercise(&l, ex->reference, &lint_opts, &rep, &e) != GL_OK) {
            fprintf(out, "%s\n", e.msg);
            problems++;
        } else if (!rep.passed && (ref_regs_unknown = regs_unknown_only(&rep))) {
            /* a machine without a CUDA Toolkit: what registers decide is left to one */
            fprintf(out,
                    "%s: SKIP: theoretical_occupancy of the reference NOT RUN: no CUDA "
                    "Toolkit's ptxas counts registers per thread here\n",
                    gl_display_path(ex->reference));
        } else if (!rep.passed) {
            fprintf(out, "%s: the reference fails its checks:\n", gl_display_path(ex->reference));
            grade_report_write_text(out, &rep);
            problems++;
        }
        grade_report_free(&rep);
        if (grade_exercise(&l, NULL, &lint_opts, &rep, &e) != GL_OK) {
            fprintf(out, "%s\n", e.msg);
            problems++;
        } else if (!rep.compiled) {
            fprintf(out, "%s: the starter does not compile:\n%s\n", gl_display_path(ex->starter),
                    rep.compile_log ? rep.compile_log : "");
            problems++;
        } else if (rep.passed) {
            fprintf(out, "%s: the starter passes every check: it gives the exercise away\n",
                    gl_display_path(ex->starter));
            problems++;
        }
        grade_report_free(&rep);
    }
    if (problems)
        fprintf(out, "%s: FAILED: %d problem%s\n", dir, problems, problems == 1 ? "" : "s");
    else
        fprintf(out, "%s: ok (%d step%s%s)\n", dir, l.nsteps, l.nsteps == 1 ? "" : "s",
                !ex                ? "; no exercise"
                : ref_regs_unknown ? "; the reference passes every check judged here, the "
                                     "starter fails"
                                   : "; the reference passes every check, the starter fails");
    lesson_free(&l);
    return problems;
}
