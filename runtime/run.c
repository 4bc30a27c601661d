/* run.c — running a launch spec on a back end: compile, check the spec against the
 * kernel's parameters, allocate, copy in, launch, copy back. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/arch.h"
#include "runtime/backend.h"
#include "runtime/cache.h"
#include "runtime/cub.h"
#include "runtime/cubin.h"
#include "runtime/instrument.h"
#include "runtime/pool.h"
#include "runtime/sandbox.h"
#include "runtime/wire.h"
#include "runtime/worker.h"
#include "trace/analysis.h"

const char *gl_run_backend_name(gl_backend_kind k)
{
    switch (k) {
    case GL_BACKEND_SIM: return "sim";
    case GL_BACKEND_GPU: return "gpu";
    default: return "auto";
    }
}

/* See backend.h. */
void gl_run_result_free_trace(gl_run_result *r)
{
    if (!r)
        return;
    trace_free(r->trace);
    r->trace = NULL;
    if (r->metrics) {
        gl_metrics_free(r->metrics);
        free(r->metrics);
        r->metrics = NULL;
    }
    free(r->findings);
    r->findings = NULL;
    r->nfindings = 0;
}

void gl_run_result_free(gl_run_result *r)
{
    if (!r)
        return;
    spec_buffers_free(r->buffers, r->nargs);
    free(r->stdout_text);
    free(r->compile_log);
    free(r->diags);
    free(r->ptx);
    free(r->dptr);
    gl_run_result_free_trace(r);
    memset(r, 0, sizeof *r);
}

/* GPULEARN_NO_GPU=1 makes `auto` behave as on a machine without a GPU (tests, demos). */
static int gpu_disabled(void)
{
    const char *e = getenv("GPULEARN_NO_GPU");
    return e && *e && strcmp(e, "0") != 0;
}

/* Whether `kind` should try the GPU (*use_gpu). The GPU is opened only in the worker
 * process (runtime/worker.h), never in this one: CUDA initialised before fork() is
 * unusable in the child. AUTO falls back to the simulator when the worker could not
 * open the GPU (no driver, no device), see gl_run_ptx; note says why. */

static gl_status choose_backend(gl_backend_kind kind, int *use_gpu, char *note, size_t note_len)
{
    *use_gpu = 0;
    if (note_len)
        note[0] = '\0';
    if (kind == GL_BACKEND_SIM)
        return GL_OK;
    if (kind == GL_BACKEND_AUTO && gpu_disabled()) {
        snprintf(note, note_len, "GPU disabled by GPULEARN_NO_GPU: running on the simulator");
        return GL_OK;
    }
    *use_gpu = 1;
    return GL_OK;
}

/* See backend.h. */
const char *gl_run_resolve_kernel(const ptx_module_t *m, const char *want)
{
    int n = ptx_entry_count(m);
    for (int i = 0; i < n; i++)
        if (strcmp(ptx_entry_name(m, i), want) == 0)
            return ptx_entry_name(m, i);
    char prefix[300];
    snprintf(prefix, sizeof prefix, "_Z%zu%s", strlen(want), want);
    for (int i = 0; i < n; i++)
        if (strncmp(ptx_entry_name(m, i), prefix, strlen(prefix)) == 0)
            return ptx_entry_name(m, i);
    return NULL;
}

static void list_entries(const ptx_module_t *m, char *buf, size_t len)
{
    buf[0] = '\0';
    size_t used = 0;
    for (int i = 0; i < ptx_entry_count(m) && used < len; i++)
        used +=
            (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", ptx_entry_name(m, i));
}

/* See backend.h. */
int gl_run_params_fit(const gl_spec *spec, const ptx_module_t *m, const char *kernel,
                      gl_param_fit *fit)
{
    ptx_param_info params[64];
    memset(fit, 0, sizeof *fit);
    fit->bad_arg = -1;
    fit->found = ptx_entry_params(m, kernel, params, 64, &fit->nparams) == SIM_OK;
    if (!fit->found) {
        fit->nparams = 0;
        return 0;
    }
    if (fit->nparams != spec->nargs)
        return 0;
    for (int i = 0; i < fit->nparams && i < 64; i++) {
        const gl_arg *a = &spec->args[i];
        if (params[i].size != (a->is_ptr ? 8 : spec_type_size(a->type))) {
            fit->bad_arg = i;
            fit->param_bytes = params[i].size;
            return 0;
        }
    }
    return 1;
}

/* Checks the spec's arguments against the kernel's .param list. */
static gl_status check_params(const gl_spec *spec, const ptx_module_t *m, const char *kernel,
                              gl_error *err)
{
    gl_param_fit fit;
    if (gl_run_params_fit(spec, m, kernel, &fit))
        return GL_OK;
    if (!fit.found)
        return gl_fail(err, GL_ERR_INPUT, "%s: kernel: no kernel '%s'", spec->file, kernel);
    const int count = fit.nparams, i = fit.bad_arg;
    if (count != spec->nargs)
        return gl_fail(err, GL_ERR_LAUNCH,
                       "%s: args: kernel '%s' takes %d parameter%s, the spec gives %d", spec->file,
                       spec->kernel, count, count == 1 ? "" : "s", spec->nargs);
    const gl_arg *a = &spec->args[i];
    return gl_fail(err, GL_ERR_LAUNCH,
                   "%s: args[%d]: '%s' is %s%s (%zu bytes) but parameter %d of "
                   "kernel '%s' is %u bytes",
                   spec->file, i, a->name, spec_type_name(a->type), a->is_ptr ? "*" : "",
                   a->is_ptr ? 8 : spec_type_size(a->type), i, spec->kernel, fit.param_bytes);
}

/* See backend.h. */
void gl_run_scalar_bytes(const gl_arg *a, uint64_t *slot)
{
    *slot = 0;
    switch (a->type) {
    case GL_I8: {
        int8_t v = (int8_t)a->value.i;
        memcpy(slot, &v, 1);
        break;
    }
    case GL_U8: {
        uint8_t v = (uint8_t)a->value.u;
        memcpy(slot, &v, 1);
        break;
    }
    case GL_I16: {
        int16_t v = (int16_t)a->value.i;
        memcpy(slot, &v, 2);
        break;
    }
    case GL_U16: {
        uint16_t v = (uint16_t)a->value.u;
        memcpy(slot, &v, 2);
        break;
    }
    case GL_I32: {
        int32_t v = (int32_t)a->value.i;
        memcpy(slot, &v, 4);
        break;
    }
    case GL_U32: {
        uint32_t v = (uint32_t)a->value.u;
        memcpy(slot, &v, 4);
        break;
    }
    case GL_I64:
    case GL_U64: memcpy(slot, &a->value.u, 8); break;
    case GL_F32: {
        float v = (float)a->value.f;
        memcpy(slot, &v, 4);
        break;
    }
    case GL_F64: memcpy(slot, &a->value.f, 8); break;
    }
}

/* The simulator's records in runtime's types (result.h): the enums are made from the
 * same lists (sim/kinds.h, trace/trace.h), so kinds copy as they are; file names are
 * copied out of the module. */

/* Copies a module-owned file name (NULL: "") into a record's field. */
static void copy_file_name(char dst[GL_FILE_MAX], const char *src)
{
    snprintf(dst, GL_FILE_MAX, "%s", src ? src : "");
}

static void access_from_sim(const sim_access *s, const unsigned block[3], gl_access *g)
{
    g->op = s->op;
    memcpy(g->thread, s->thread, sizeof g->thread);
    memcpy(g->block, s->block, sizeof g->block);
    g->warp = (int)((s->thread[0] +
                     (uint64_t)block[0] * (s->thread[1] + (uint64_t)block[1] * s->thread[2])) /
                    32);
    g->ptx_line = s->ptx_line;
    copy_file_name(g->src_file, s->src_file);
    g->src_line = s->src_line;
}

/* The GPU's fault (worker.h) as a gl_fault of kind GL_FAULT_GPU: the CUDA error's name
 * and msg, the driver's words ("CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was
 * encountered (cuCtxSynchronize)") or the time-out's. The GPU names no thread or line. */
static void fault_from_gpu(const gl_worker_result *wr, const char *msg, gl_fault *g)
{
    memset(g, 0, sizeof *g);
    g->kind = GL_FAULT_GPU;
    g->warp = g->lane = -1;
    snprintf(g->cuda_error, sizeof g->cuda_error, "%s", wr->cuda_error);
    snprintf(g->message, sizeof g->message, "%.511s", msg);
}

/* f's thread's warp and lane in a block of block[] threads: warps are 32 consecutive
 * linear thread ids, x fastest (CUDA C++ Programming Guide, "Thread Hierarchy"). */
static void fault_from_sim(const sim_fault *s, const unsigned block[3], gl_fault *g)
{
    memset(g, 0, sizeof *g);
    g->kind = (gl_fault_kind)s->kind;
    g->space = (gl_space)s->space;
    g->is_store = s->is_store;
    g->address = s->address;
    g->size = s->size;
    memcpy(g->block, s->block, sizeof g->block);
    memcpy(g->thread, s->thread, sizeof g->thread);
    g->ptx_line = s->ptx_line;
    copy_file_name(g->src_file, s->src_file);
    g->src_line = s->src_line;
    snprintf(g->message, sizeof g->message, "%s", s->message);
    snprintf(g->alloc_name, sizeof g->alloc_name, "%s", s->near.name);
    g->alloc_bytes = s->near.bytes;
    g->alloc_distance = s->near.distance;
    g->alloc_after = s->near.after;
    g->warp = g->lane = -1;
    if (s->kind != SIM_FAULT_NONE && s->kind != SIM_FAULT_DEADLOCK &&
        s->kind != SIM_FAULT_UNSUPPORTED) {
        const uint64_t tid =
            s->thread[0] + (uint64_t)block[0] * (s->thread[1] + (uint64_t)block[1] * s->thread[2]);
        g->warp = (int)(tid / 32);
        g->lane = (int)(tid % 32);
    }
}

static void finding_from_sim(const sim_finding *s, const unsigned block[3], gl_finding *g)
{
    memset(g, 0, sizeof *g);
    g->kind = (gl_finding_kind)s->kind;
    g->is_error = s->is_error;
    g->space = (gl_space)s->space;
    g->address = s->address;
    g->size = s->size;
    g->hazard = (gl_hazard)s->hazard;
    access_from_sim(&s->access, block, &g->access);
    access_from_sim(&s->other, block, &g->other);
    g->other_async = s->other_async;
    g->count = s->count;
    snprintf(g->message, sizeof g->message, "%s", s->message);
    snprintf(g->var, sizeof g->var, "%s", s->var);
}

/* The one fault formatter of every simulator run (gl_run_sim: `run`, the TUI, the grader):
 * "kernel.cu:5: block (3,0,0) thread (232,0,0): <message>"; a deadlock or an unsupported
 * instruction names no thread. Where the PTX has no source line: "kernel.cu (PTX line 40)". */
static void describe_fault(const gl_spec *spec, const gl_fault *f, gl_error *err)
{
    char where[1200];
    if (f->src_file[0] && f->src_line > 0)
        snprintf(where, sizeof where, "%s:%d", gl_display_path(f->src_file), f->src_line);
    else if (f->ptx_line > 0)
        snprintf(where, sizeof where, "%s (PTX line %d)", gl_display_path(spec->source),
                 f->ptx_line);
    else
        snprintf(where, sizeof where, "%s", gl_display_path(spec->source));
    if (f->kind == GL_FAULT_DEADLOCK || f->kind == GL_FAULT_UNSUPPORTED)
        gl_fail(err, GL_ERR_FAULT, "%s: %s", where, f->message);
    else
        gl_fail(err, GL_ERR_FAULT, "%s: block (%u,%u,%u) thread (%u,%u,%u): %s", where, f->block[0],
                f->block[1], f->block[2], f->thread[0], f->thread[1], f->thread[2], f->message);
}

/* The trace's sink when both the metrics and the caller (gl_run_opts.trace_sink) want
 * every event: the metrics first. */
typedef struct sim_sinks {
    gl_metrics *metrics;
    trace_sink_fn next;
    void *next_ctx;
} sim_sinks;

static void sim_sinks_fn(void *ctx, const trace_t *t, const trace_event *ev, const uint64_t *addrs)
{
    sim_sinks *s = ctx;
    gl_metrics_sink(s->metrics, t, ev, addrs);
    s->next(s->next_ctx, t, ev, addrs);
}

/* sim_fill_fn of a pointer argument (ctx: its gl_arg): its init, from the spec. */
static void fill_arg(void *ctx, void *dst, size_t bytes)
{
    (void)bytes;
    spec_buffer_fill(ctx, dst);
}

/* What the kernel left into buffers b, for the pointer arguments [0, nalloc) with
 * simulated memory at dptr in s: copied into the host buffers there are, else handed
 * over from the simulator (sim_release_data, so s must not run again). Buffers without
 * data and never allocated (a run that stopped before; s may be NULL when nalloc is 0)
 * get their initial contents. -1 when out of memory (data stays NULL), else 0. */
static int take_buffers(const gl_spec *spec, sim_t *s, const uint64_t *dptr, int nalloc,
                        gl_buffer *b)
{
    int rc = 0;
    for (int i = 0; i < spec->nargs; i++) {
        if (!spec->args[i].is_ptr)
            continue;
        if (i < nalloc && b[i].data) {
            sim_memcpy_dtoh(s, b[i].data, dptr[i], b[i].bytes);
        } else if (i < nalloc) {
            b[i].data = sim_release_data(s, dptr[i]);
        } else if (!b[i].data) {
            b[i].data = malloc(b[i].bytes ? b[i].bytes : 1);
            if (b[i].data)
                spec_buffer_fill(&spec->args[i], b[i].data);
        }
        if (!b[i].data)
            rc = -1;
    }
    return rc;
}

static gl_status run_sim_sandboxed(const gl_spec *spec, const ptx_module_t *m, const char *kernel,
                                   const gl_run_opts *opts, gl_run_result *res, gl_error *err);

/* The translating tier's folder in a sandboxed child (its private folder), or NULL. */
static const char *jit_dir_here;

/* See backend.h. */
uint64_t gl_run_memory_limit_default(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kib = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    if (!kib)
        return UINT64_C(4) << 30;
    const uint64_t half = (uint64_t)kib * 1024 / 2;
    return half < (UINT64_C(256) << 20) ? UINT64_C(256) << 20 : half;
}

/* Where the memory budget came from, for the end of a message about it. */
static const char *limit_origin(const gl_run_opts *o)
{
    return o->memory_limit_origin ? o->memory_limit_origin
           : o->memory_limit      ? "the caller's"
                                  : "half the memory available now; --memory-limit sets it";
}

/* The registers per thread of kernel for the simulated device dev, from opts->regs
 * (gl_run_opts), or -1 with why (whylen bytes) saying why they are not known. */
static int sim_regs(const gl_run_opts *opts, const char *kernel, const sim_device_model *dev,
                    char *why, size_t whylen)
{
    why[0] = '\0';
    if (!opts->regs) {
        snprintf(why, whylen, "%s",
                 opts->regs_why && *opts->regs_why ? opts->regs_why : "not counted");
        return -1;
    }
    int sm = 0;
    const int regs = gl_cubin_regs_of(opts->regs, kernel, &sm);
    if (sm != dev->compute_major * 10 + dev->compute_minor)
        snprintf(why, whylen, "counted for sm_%d, not the simulated %s", sm, dev->name);
    else if (regs < 0)
        snprintf(why, whylen, "ptxas's cubin has no function '%.100s'", kernel);
    return why[0] ? -1 : regs;
}

/* See backend.h. */
gl_status gl_run_sim(const gl_spec *spec, const ptx_module_t *m, const char *kernel,
                     const gl_run_opts *opts, gl_run_result *res, gl_error *err)
{
    gl_run_opts none = {0};
    if (!opts)
        opts = &none;
    if (opts->sandbox)
        return run_sim_sandboxed(spec, m, kernel, opts, res, err);
    /* trace, checkers, metrics: a trace when asked for one, for metrics or for the
     * caller's sink; metrics are streamed from it so they stay exact past the
     * stored-event cap */
    trace_t *tr = NULL;
    trace_level level = opts->trace_level;
    if ((opts->metrics || opts->trace_sink) && level < TRACE_MEMORY)
        level = TRACE_MEMORY;
    sim_sinks sinks = {.next = opts->trace_sink, .next_ctx = opts->trace_sink_ctx};
    if (level != TRACE_OFF) {
        tr = trace_new(level, opts->trace_level != TRACE_OFF ? opts->trace_max_events : 1);
        res->metrics = opts->metrics ? calloc(1, sizeof *res->metrics) : NULL;
        if (!tr || (opts->metrics && !res->metrics)) {
            trace_free(tr);
            take_buffers(spec, NULL, NULL, 0, res->buffers); /* the initial contents */
            return gl_fail(err, GL_ERR_NOMEM, "out of memory for the trace");
        }
        tr->snap_max_bytes = opts->snapshot_bytes;
        tr->record_regs = opts->trace_regs && opts->trace_level != TRACE_OFF;
        sinks.metrics = res->metrics;
        if (res->metrics && opts->trace_sink) {
            tr->sink = sim_sinks_fn;
            tr->sink_ctx = &sinks;
        } else if (res->metrics) {
            tr->sink = gl_metrics_sink;
            tr->sink_ctx = res->metrics;
        } else if (opts->trace_sink) {
            tr->sink = opts->trace_sink;
            tr->sink_ctx = opts->trace_sink_ctx;
        }
    }
    /* the device modelled: the target of the run (gl_run_arch) */
    const char *origin = NULL;
    const sim_device_model *dev = gl_run_profile(spec, opts, &origin);
    const int ptx_sm = gl_arch_ptx_target_sm(res->ptx);
    if (ptx_sm > dev->compute_major * 10 + dev->compute_minor) {
        trace_free(tr);
        take_buffers(spec, NULL, NULL, 0, res->buffers); /* the initial contents */
        return gl_fail(err, GL_ERR_LAUNCH,
                       "%s: the PTX targets sm_%d, newer than the simulated %s (%s): compile "
                       "for %s or older",
                       spec->file, ptx_sm, dev->name, origin, dev->name);
    }
    if (res->metrics) /* the DRAM model holds the modelled GPU's L2 */
        res->metrics->l2_bytes = dev->l2_bytes;
    sim_config cfg = {.step_limit = opts->step_limit ? opts->step_limit : GL_STEP_LIMIT_DEFAULT,
                      .time_limit_s = opts->timeout_s > 0 ? opts->timeout_s : GL_TIMEOUT_DEFAULT_S,
                      .trace = tr,
                      .schedule_random = opts->schedule_random,
                      .schedule_seed = opts->schedule_seed,
                      .checks_off = opts->checks_off,
                      .device = dev,
                      .cluster = {spec->cluster[0], spec->cluster[1], spec->cluster[2]},
                      .memory_limit =
                          opts->memory_limit ? opts->memory_limit : gl_run_memory_limit_default()};
    cfg.threads = opts->sim_threads;
    if (!cfg.threads) {
        const char *e = getenv("GPULEARN_SIM_THREADS");
        cfg.threads = e && *e ? gl_run_sim_threads_parse(e) : (unsigned)gl_pool_cores();
        if (!cfg.threads) {
            trace_free(tr);
            take_buffers(spec, NULL, NULL, 0, res->buffers); /* the initial contents */
            return gl_fail(err, GL_ERR_USAGE,
                           "GPULEARN_SIM_THREADS must be a whole number from 1 to %d, not '%s'",
                           GL_SIM_THREADS_MAX, e);
        }
    }
    gl_sim_tier tier = opts->sim_tier;
    if (tier == GL_TIER_DEFAULT) {
        const char *e = getenv("GPULEARN_SIM_TIER");
        tier = e ? gl_run_sim_tier_parse(e) : GL_TIER_AUTO;
    }
    cfg.tier = tier == GL_TIER_INTERP ? SIM_TIER_INTERP
               : tier == GL_TIER_JIT  ? SIM_TIER_JIT
                                      : SIM_TIER_AUTO;
    char jit_dir[4200];
    if (tier != GL_TIER_INTERP && jit_dir_here)
        cfg.jit_dir = jit_dir_here; /* never the shared cache: its code is loaded unsandboxed */
    else if (tier != GL_TIER_INTERP && gl_cache_jit_dir(jit_dir, sizeof jit_dir) == 0)
        cfg.jit_dir = jit_dir;
    sim_t *s = sim_new(&cfg);
    if (!s) {
        trace_free(tr);
        take_buffers(spec, NULL, NULL, 0, res->buffers); /* the initial contents */
        return gl_fail(err, GL_ERR_NOMEM, "out of memory creating the simulator");
    }
    gl_status st = GL_OK;
    int nalloc = 0; /* arguments [0, nalloc) have their simulated memory */
    uint64_t *dptr = calloc((size_t)spec->nargs + 1, sizeof *dptr);
    uint64_t *slots = calloc((size_t)spec->nargs + 1, sizeof *slots);
    void **params = calloc((size_t)spec->nargs + 1, sizeof *params);
    if (!dptr || !slots || !params) {
        st = gl_fail(err, GL_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int i = 0; i < spec->nargs; i++, nalloc = i) {
        const gl_arg *a = &spec->args[i];
        if (a->is_ptr) {
            const gl_buffer *b = &res->buffers[i];
            /* initcheck: every byte copied in counts as written, but with
             * uninit_zero_buffers not those of a buffer without an init */
            const int unwritten = opts->uninit_zero_buffers && a->init.kind == GL_INIT_ZERO;
            sim_status ms;
            if (b->data) { /* host buffers (a GPU attempt's): copied in */
                ms = sim_malloc(s, b->bytes, a->name, &dptr[i]);
                if (ms == SIM_OK)
                    ms = sim_memcpy_htod(s, dptr[i], b->data, b->bytes);
                if (ms == SIM_OK && unwritten)
                    ms = sim_set_written(s, dptr[i], b->bytes, 0);
            } else if (unwritten) {
                ms = sim_malloc(s, b->bytes, a->name, &dptr[i]);
            } else { /* generated in place: one copy of each buffer */
                ms = sim_malloc_init(s, b->bytes, a->name,
                                     a->init.kind == GL_INIT_ZERO ? NULL : fill_arg, (void *)a,
                                     &dptr[i]);
            }
            const uint64_t held = sim_memory_used(s);
            if (ms != SIM_OK &&
                b->bytes > cfg.memory_limit - (held < cfg.memory_limit ? held : cfg.memory_limit)) {
                char want[32], have[32], lim[32];
                gl_format_bytes(want, sizeof want, b->bytes);
                gl_format_bytes(have, sizeof have, held);
                gl_format_bytes(lim, sizeof lim, cfg.memory_limit);
                snprintf(res->fault.message, sizeof res->fault.message,
                         "the launch asks for %s of device memory for args[%d] '%s' (%s "
                         "allocated before it); the memory limit is %s (%s)",
                         want, i, a->name, have, lim, limit_origin(opts));
                st = gl_fail(err, GL_ERR_LAUNCH, "%s: %s", spec->file, res->fault.message);
                goto done;
            }
            if (ms != SIM_OK) {
                st = gl_fail(err, GL_ERR_NOMEM, "%s: args[%d]: cannot allocate %zu bytes",
                             spec->file, i, b->bytes);
                goto done;
            }
            slots[i] = dptr[i];
        } else {
            gl_run_scalar_bytes(a, &slots[i]);
        }
        params[i] = &slots[i];
    }
    {
        /* registers counted for the target that one block cannot get: a GPU refuses the
         * launch (CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES), so the simulator does too */
        char why[160];
        const int regs = sim_regs(opts, kernel, dev, why, sizeof why);
        gl_device_info info;
        gl_occupancy o;
        gl_arch_device_info(dev, &info);
        gl_run_occupancy_of(&info, spec->grid, spec->block, 0, regs, 0, &o);
        if (regs > 0 && o.valid && o.blocks_per_sm == 0) {
            st = gl_fail(err, GL_ERR_LAUNCH,
                         "%s: too many resources requested for launch: '%s' needs %d registers "
                         "per thread (ptxas, %s), and a block of %d warps needs more than the "
                         "%d registers an SM gives one block; a GPU refuses this launch "
                         "(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES). Use smaller blocks, or fewer "
                         "registers (__launch_bounds__)",
                         spec->file, kernel, regs, dev->name, o.warps_per_block,
                         info.regs_per_block > 0 ? info.regs_per_block : info.regs_per_sm);
            goto done;
        }
    }
    sim_result sr;
    sim_status ss =
        sim_launch(s, m, kernel, spec->grid, spec->block, spec->dynamic_shared_bytes, params, &sr);
    if (ss != SIM_ERR_LAUNCH && ss != SIM_ERR_NOT_FOUND) {
        gl_device_info info;
        gl_arch_device_info(dev, &info);
        char why[160];
        const int regs = sim_regs(opts, kernel, dev, why, sizeof why);
        gl_run_occupancy_of(&info, spec->grid, spec->block,
                            ptx_entry_shared_bytes(m, kernel) + spec->dynamic_shared_bytes, regs, 0,
                            &res->occupancy);
        snprintf(res->occupancy.regs_why, sizeof res->occupancy.regs_why, "%s", why);
    }
    gl_arch_profile_peaks(dev, &res->peaks);
    fault_from_sim(&sr.fault, spec->block, &res->fault);
    res->stats = (gl_stats){sr.stats.warp_instructions, sr.stats.thread_instructions};
    res->block_threads = sr.threads;
    free(res->stdout_text);
    res->stdout_text = sr.printf_out ? strndup(sr.printf_out, sr.printf_len) : strdup("");
    if (sr.printf_dropped) {
        size_t used = strlen(res->note);
        snprintf(res->note + used, sizeof res->note - used,
                 "%sdevice printf: %zu bytes past the first %zu MiB were dropped (a GPU's "
                 "printf buffer holds 1 MiB by default)",
                 used ? "; " : "", sr.printf_dropped, SIM_PRINTF_MAX_BYTES >> 20);
    }
    res->findings = sr.nfindings > 0 ? calloc((size_t)sr.nfindings, sizeof *res->findings) : NULL;
    res->nfindings = res->findings ? sr.nfindings : 0;
    for (int i = 0; i < res->nfindings; i++)
        finding_from_sim(&sr.findings[i], spec->block, &res->findings[i]);
    /* findings that found no memory are counted as dropped */
    res->findings_dropped = sr.findings_dropped + (sr.nfindings - res->nfindings);
    res->nerrors = sr.nerrors;
    res->nwarnings = sr.nwarnings;
    sim_result_free(&sr);
    if (tr) {
        if (res->metrics && gl_metrics_finish(res->metrics, tr) < 0)
            res->metrics->incomplete = 1;
        tr->sink = NULL;
        tr->sink_ctx = NULL;
        if (opts->trace_level != TRACE_OFF) {
            res->trace = tr;
            tr = NULL;
        }
    }
    switch (ss) {
    case SIM_OK: break;
    case SIM_ERR_FAULT:
        describe_fault(spec, &res->fault, err);
        st = res->fault.kind == GL_FAULT_UNSUPPORTED ? GL_ERR_UNSUPPORTED : GL_ERR_FAULT;
        if (err)
            err->status = st;
        break;
    case SIM_ERR_LAUNCH:
        if (strstr(res->fault.message, "the memory limit is")) { /* say where it is set */
            size_t used = strlen(res->fault.message);
            snprintf(res->fault.message + used, sizeof res->fault.message - used, " (%s)",
                     limit_origin(opts));
        }
        st = gl_fail(err, GL_ERR_LAUNCH, "%s: %s", spec->file, res->fault.message);
        break;
    case SIM_ERR_NOMEM: st = gl_fail(err, GL_ERR_NOMEM, "simulator out of memory"); break;
    default:
        st = gl_fail(err, GL_ERR_LAUNCH, "%s: launch failed: %s", spec->file, res->fault.message);
        break;
    }
done:
    if (dptr && take_buffers(spec, s, dptr, nalloc, res->buffers) != 0 && st == GL_OK)
        st = gl_fail(err, GL_ERR_NOMEM, "out of memory for the buffers");
    if (dptr && spec->nargs > 0) { /* buffer addresses: kept in res (a GPU attempt's go) */
        free(res->dptr);
        res->dptr = dptr;
        dptr = NULL;
    }
    free(dptr);
    free(slots);
    free(params);
    sim_free(s);
    trace_free(tr);
    return st;
}

void gl_run_timing_rates(const gl_spec *spec, double peak_gbs, gl_timing *t)
{
    t->bytes_estimated = 0;
    t->bytes_moved = spec->bytes_moved;
    if (t->bytes_moved <= 0) {
        /* Every buffer read or written once: a fair guess for streaming kernels. */
        double sum = 0;
        for (int i = 0; i < spec->nargs; i++)
            if (spec->args[i].is_ptr)
                sum += (double)spec->args[i].len * (double)spec_type_size(spec->args[i].type);
        t->bytes_moved = sum;
        t->bytes_estimated = 1;
    }
    t->flops = spec->flops;
    double s = t->median_ms / 1e3;
    t->gbs = s > 0 ? t->bytes_moved / s / 1e9 : 0;
    t->gflops = s > 0 && t->flops > 0 ? t->flops / s / 1e9 : 0;
    t->peak_gbs = peak_gbs;
    t->pct_of_peak = peak_gbs > 0 ? 100.0 * t->gbs / peak_gbs : 0;
}

/* Runs the launch in the GPU worker (worker.h). *opened: whether the worker got as far
 * as opening the GPU (AUTO falls back to the simulator when it did not). A kernel fault
 * or time-out is GL_ERR_FAULT with the advice to re-run on the simulator. */
/* GPU traces (instrument.h): the trace decoded from the instrumented run's buffer into
 * res->trace (trace_level != OFF) and res->metrics (metrics), with a note when it was cut
 * short or could not be made. */
static void gpu_trace_result(const gl_spec *spec, const ptx_module_t *m, const gl_instrumented *ins,
                             const gl_run_opts *opts, const gl_worker_result *wr,
                             gl_run_result *res)
{
    char why[700] = "";
    if (!wr->trace_buf) {
        snprintf(why, sizeof why, "no GPU trace: %s",
                 wr->trace_error[0] ? wr->trace_error : "the instrumented kernel did not run");
        goto note;
    }
    trace_t *tr =
        trace_new(TRACE_MEMORY, opts->trace_level != TRACE_OFF ? opts->trace_max_events : 1);
    gl_metrics *met = opts->metrics ? calloc(1, sizeof *met) : NULL;
    if (!tr || (opts->metrics && !met)) {
        trace_free(tr);
        free(met);
        snprintf(why, sizeof why, "no GPU trace: out of memory");
        goto note;
    }
    if (met) {
        tr->sink = gl_metrics_sink;
        tr->sink_ctx = met;
        met->l2_bytes = wr->have_info ? wr->info.l2_bytes : 0; /* the DRAM model: its L2 */
    }
    uint64_t over = 0; /* records the device buffer had no room for: no sink saw them */
    if (gl_instrument_trace_decode(wr->trace_buf, wr->trace_bytes, ins, m, spec->grid, spec->block,
                                   tr, &over) < 0) {
        trace_free(tr);
        gl_metrics_free(met);
        free(met);
        snprintf(why, sizeof why, "no GPU trace: the trace buffer came back malformed");
        goto note;
    }
    if (met && gl_metrics_finish(met, tr) < 0)
        met->incomplete = 1;
    tr->sink = NULL;
    tr->sink_ctx = NULL;
    /* events past the stored trace's cap went through the sink: only the device's lost
     * records make the metrics incomplete (the trace's views say what they kept) */
    const int truncated = over > 0;
    /* memory instructions the instrumentation does not record (instrument.h): the
     * metrics lack their requests, and say so */
    int unrecorded = 0;
    for (int pc = 0; pc < tr->ninsns; pc++)
        unrecorded |= (tr->insns[pc].flags & (TRACE_INSN_WMMA | TRACE_INSN_BULK)) &&
                      (tr->insns[pc].src_space || tr->insns[pc].dst_space);
    res->metrics = met;
    if (met && (truncated || unrecorded))
        met->incomplete = 1;
    if (opts->trace_level != TRACE_OFF)
        res->trace = tr;
    else
        trace_free(tr);
    if (truncated)
        snprintf(why, sizeof why,
                 "GPU trace truncated: %llu records did not fit in %llu (raise "
                 "gpu_trace_records)",
                 (unsigned long long)over,
                 (unsigned long long)(opts->gpu_trace_records ? opts->gpu_trace_records
                                                              : GL_ITRACE_DEFAULT_RECORDS));
    else if (met && unrecorded)
        snprintf(why, sizeof why,
                 "GPU metrics lack wmma.load/store and cp.async.bulk, which the GPU trace does "
                 "not record: their requests and bytes come from the simulator (--backend sim)");
    else if (met)
        snprintf(why, sizeof why,
                 "GPU metrics cover memory requests and atomics; instruction counts and "
                 "branch efficiency come from the simulator (--backend sim)");
    else
        return;
note:;
    size_t used = strlen(res->note);
    snprintf(res->note + used, sizeof res->note - used, "%s%s", used ? "; " : "", why);
}

static gl_status run_on_gpu(const gl_spec *spec, const char *ptx, const char *kernel,
                            const ptx_module_t *m, const gl_run_opts *opts, gl_run_result *res,
                            int *opened, gl_error *err)
{
    *opened = 0;
    /* GPU traces: the instrumented copy of the kernel, when a trace or metrics are
     * wanted and the simulator's parser could number the PTX's instructions */
    gl_instrumented ins = {0};
    int want_trace = opts->gpu_trace && (opts->trace_level != TRACE_OFF || opts->metrics);
    if (want_trace && !m) {
        want_trace = 0;
        size_t used = strlen(res->note);
        snprintf(res->note + used, sizeof res->note - used,
                 "%sno GPU trace: the simulator's PTX parser, which numbers the "
                 "instructions, cannot read this PTX",
                 used ? "; " : "");
    }
    if (want_trace) {
        gl_error ie = {0};
        if (gl_instrument_module(ptx, m, kernel, 0, &ins, &ie) != GL_OK) {
            want_trace = 0;
            size_t used = strlen(res->note);
            snprintf(res->note + used, sizeof res->note - used, "%sno GPU trace: %.300s",
                     used ? "; " : "", ie.msg);
        }
    }
    uint64_t *slots = calloc((size_t)spec->nargs + 1, sizeof *slots);
    if (!slots) {
        gl_instrumented_free(&ins);
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    }
    for (int i = 0; i < spec->nargs; i++)
        if (!spec->args[i].is_ptr)
            gl_run_scalar_bytes(&spec->args[i], &slots[i]);
    int reps = opts->time_reps > 0 ? opts->time_reps : 0;
    /* CUB beside the kernel: its library for the PTX's target, built once with nvcc */
    char cub_so[PATH_MAX], cub_why[240] = "";
    int have_cub = spec->ref_cub &&
                   gl_cub_prepare(gl_arch_ptx_target_sm(ptx) ? gl_arch_ptx_target_sm(ptx) : 90,
                                  cub_so, sizeof cub_so, cub_why, sizeof cub_why);
    gl_worker_job job = {.spec = spec,
                         .cub_so = have_cub ? cub_so : NULL,
                         .ptx = ptx,
                         .kernel = kernel,
                         .buffers = res->buffers,
                         .slots = slots,
                         .timeout_s = opts->timeout_s,
                         .warmup = reps && opts->time_warmup > 0 ? opts->time_warmup : 0,
                         .reps = reps,
                         .want_info = reps > 0 || want_trace, /* the roofline's peaks,
                                                                 the DRAM model's L2 */
                         .trace_ptx = want_trace ? ins.ptx : NULL,
                         .trace_records = opts->gpu_trace_records};
    gl_worker_result wr;
    gl_error e = {0};
    gl_status st = gl_worker_run(&job, &wr, &e);
    free(slots);
    if (st == GL_OK && want_trace)
        gpu_trace_result(spec, m, &ins, opts, &wr, res);
    gl_instrumented_free(&ins);
    *opened = wr.opened;
    if (wr.stdout_text) {
        free(res->stdout_text);
        res->stdout_text = wr.stdout_text;
        wr.stdout_text = NULL;
    }
    if (wr.dptr && wr.ndptr == spec->nargs) { /* buffer addresses */
        free(res->dptr);
        res->dptr = wr.dptr;
        wr.dptr = NULL;
    }
    res->elapsed_ms = wr.elapsed_ms;
    if (wr.occupancy[2] > 0 && wr.occupancy[3] > 0 && wr.occupancy[4] > 0) {
        gl_device_info d = {
            .warp_size = 32, .sm_count = wr.occupancy[3], .max_threads_per_sm = wr.occupancy[4]};
        gl_run_occupancy_of(
            &d, spec->grid, spec->block, (unsigned)wr.occupancy[1] + spec->dynamic_shared_bytes,
            wr.occupancy[0] > 0 ? wr.occupancy[0] : -1, wr.occupancy[2], &res->occupancy);
    }
    const gl_worker_fault gpu_fault = wr.fault;
    if (gpu_fault != GL_WORKER_OK)
        fault_from_gpu(&wr, e.msg, &res->fault);
    res->timing.library = wr.library;
    if (spec->ref_cub && !have_cub && st == GL_OK) { /* why CUB did not run */
        res->timing.library = (gl_library_run){.asked = 1};
        snprintf(res->timing.library.note, sizeof res->timing.library.note, "%s", cub_why);
    }
    if (st == GL_OK && reps > 0 && wr.ntimes == reps) {
        gl_timing *t = &res->timing;
        gl_time_stats ts;
        gl_worker_time_stats_of(wr.times_ms, wr.ntimes, &ts);
        t->reps = reps;
        t->warmup = job.warmup;
        t->median_ms = ts.median_ms;
        t->min_ms = ts.min_ms;
        t->max_ms = ts.max_ms;
        t->q1_ms = ts.q1_ms;
        t->q3_ms = ts.q3_ms;
        snprintf(t->device, sizeof t->device, "%s", wr.have_info ? wr.info.name : "");
        gl_run_timing_rates(spec, wr.have_info ? wr.info.peak_bandwidth_gbs : 0, t);
    }
    if (wr.have_info) {
        gl_arch_peaks(&wr.info, &res->peaks);
        snprintf(res->peaks.device, sizeof res->peaks.device, "%.79s", wr.info.name);
    }
    gl_worker_result_free(&wr);
    if (st != GL_ERR_FAULT) {
        if (st != GL_OK && err)
            *err = e;
        return st;
    }
    /* The spec's own command line where the spec is a file (lessons embed theirs). */
    char again[1200];
    if (spec->file && access(spec->file, R_OK) == 0)
        snprintf(again, sizeof again, ": gpulearn run %s --backend sim",
                 gl_display_path(spec->file));
    else
        snprintf(again, sizeof again, " (--backend sim)");
    const char *src = gl_display_path(spec->source);
    if (gpu_fault == GL_WORKER_TIMEOUT)
        return gl_fail(err, GL_ERR_FAULT,
                       "%s: kernel '%s' ran longer than %g s on the GPU and was stopped: an "
                       "endless loop?\nRun it on the simulator to see where it loops%s",
                       src, spec->kernel,
                       opts->timeout_s > 0 ? opts->timeout_s : GL_TIMEOUT_DEFAULT_S, again);
    if (strstr(e.msg, "CUDA_ERROR_ASSERT")) /* the GPU printed each failing thread */
        return gl_fail(err, GL_ERR_FAULT,
                       "%s: kernel '%s' stopped on the GPU: an assert() failed (the GPU's "
                       "messages above name each thread)\nRe-run it on the simulator to stop "
                       "at the first failing thread%s",
                       src, spec->kernel, again);
    return gl_fail(err, GL_ERR_FAULT,
                   "%s: kernel '%s' faulted on the GPU: %s\nRe-run it on the simulator to find "
                   "the faulting access%s",
                   src, spec->kernel, e.msg, again);
}

/* ------------------------------------------------------------ the sandboxed run */

/* What a sandboxed run's child sends back (child.h messages, in this order): each
 * buffer's bytes as they are (no copy on either side), then the rest of the result in
 * runtime/wire.h's codec, which refuses what does not decode (the child ran a learner's
 * code). */
enum {
    RUN_MSG_BUFFER = 1, /* arg: the argument; payload: its buffer's bytes after the run */
    RUN_MSG_RESULT,     /* payload: a sandbox_out, the last message */
};

/* The most bytes one message of a sandboxed run may announce besides a buffer, which
 * may be as large as it is (printf output is cut at 1 MiB, findings at 100). */
#define RUN_MSG_MAX ((uint64_t)256 << 20)

/* What the sandboxed child runs. */
typedef struct sandbox_run {
    const gl_spec *spec;
    const ptx_module_t *m;
    const char *kernel;
    const gl_run_opts *opts;
    gl_run_result *res;
    char jit[4200]; /* its private folder's jit/ */
} sandbox_run;

/* RUN_MSG_RESULT's payload: gl_run_sim's status and message, the result (its buffers
 * sent before it), and the trace sink's context (opts->trace_sink_ctx_bytes of it). */
typedef struct sandbox_out {
    gl_status st;
    const char *msg;
    const gl_run_result *res;
    const void *sink_ctx;
    size_t sink_bytes;
} sandbox_out;

static void put_sandbox_out(gl_wire_out *w, const void *obj)
{
    const sandbox_out *o = obj;
    gl_wire_put_status(w, o->st, o->msg);
    gl_run_result r = *o->res;
    r.buffers = NULL; /* sent as RUN_MSG_BUFFER */
    gl_wire_put_run(w, &r);
    gl_wire_put_blob(w, o->sink_ctx, o->sink_bytes);
}

/* The sandboxed child (gl_sandbox_spawn's body): runs gl_run_sim as the caller asked
 * (unsandboxed now: it is the sandbox) and sends the result back. */
static void sandboxed_run(int fd, void *arg)
{
    sandbox_run *a = arg;
    gl_run_opts o = *a->opts;
    o.sandbox = 0;
    o.trace_level = TRACE_OFF; /* no stored trace travels back */
    jit_dir_here = a->jit;
    gl_error e = {0};
    const gl_status st = gl_run_sim(a->spec, a->m, a->kernel, &o, a->res, &e);
    const gl_run_result *r = a->res;
    int ok = 1;
    for (int i = 0; ok && r->buffers && i < r->nargs; i++)
        if (r->buffers[i].data)
            ok = gl_child_send(fd, RUN_MSG_BUFFER, (uint32_t)i, r->buffers[i].data,
                               r->buffers[i].bytes) == 0;
    const sandbox_out out = {st, e.msg, r, a->opts->trace_sink_ctx,
                             a->opts->trace_sink_ctx ? a->opts->trace_sink_ctx_bytes : 0};
    ok = ok && gl_wire_send(fd, RUN_MSG_RESULT, 0, put_sandbox_out, &out) == 0;
    _exit(ok ? 0 : 1);
}

/* RUN_MSG_RESULT into res: what gl_run_sim sets (the fault, counters, printf output,
 * findings, occupancy, the device profile's peaks, metrics, buffer addresses, the
 * note), *st and err, the trace sink's context. 1, or -1 for a payload that does not
 * decode or does not fit this run. */
static int take_result(const gl_run_opts *opts, gl_run_result *res, const gl_child_msg *in,
                       gl_status *st, gl_error *err)
{
    gl_wire_in w = gl_wire_in_of(in->data, (size_t)in->h.len);
    gl_status status;
    char msg[sizeof err->msg];
    gl_wire_get_status(&w, &status, msg, sizeof msg);
    gl_run_result got;
    gl_wire_get_run(&w, &got);
    void *sink = NULL;
    size_t nsink = 0;
    gl_wire_get_array(&w, &sink, &nsink, 1, SIZE_MAX);
    const int ok = w.ok && w.p == w.end && !got.buffers && got.nargs == res->nargs &&
                   (!sink || (opts->trace_sink_ctx && nsink == opts->trace_sink_ctx_bytes));
    if (ok) {
        memcpy(res->note, got.note, sizeof res->note);
        res->fault = got.fault;
        res->stats = got.stats;
        res->occupancy = got.occupancy;
        res->peaks = got.peaks;
        res->findings_dropped = got.findings_dropped;
        res->nerrors = got.nerrors;
        res->nwarnings = got.nwarnings;
#define TAKE(f) (res->f = got.f, got.f = NULL)
        free(res->stdout_text), TAKE(stdout_text);
        free(res->findings), TAKE(findings), res->nfindings = got.nfindings;
        free(res->dptr), TAKE(dptr);
        if (res->metrics)
            gl_metrics_free(res->metrics), free(res->metrics);
        TAKE(metrics);
#undef TAKE
        if (sink)
            memcpy(opts->trace_sink_ctx, sink, nsink);
        *st = status;
        if (*st != GL_OK)
            gl_fail(err, *st, "%s", msg);
    }
    gl_run_result_free(&got);
    free(sink);
    return ok ? 1 : -1;
}

/* One message of a sandboxed run's child into res (see RUN_MSG_*): 0, 1 after the
 * result (*st and err set), -1 for a message that does not fit. */
static int take_message(const gl_run_opts *opts, gl_run_result *res, gl_child_msg *in,
                        gl_status *st, gl_error *err)
{
    switch (in->h.type) {
    case RUN_MSG_BUFFER:
        if (!res->buffers || in->h.arg >= (uint32_t)res->nargs ||
            in->h.len != res->buffers[in->h.arg].bytes)
            return -1;
        free(res->buffers[in->h.arg].data);
        res->buffers[in->h.arg].data = gl_child_msg_take(in);
        return 0;
    case RUN_MSG_RESULT: return take_result(opts, res, in, st, err);
    case GL_SANDBOX_MSG_ERROR:
        *st = gl_fail(err, GL_ERR_TOOL, "cannot run the kernel in the sandbox: %s", in->data);
        return 1;
    default: return -1;
    }
}

/* This process's virtual memory now, bytes (/proc/self/statm), 0 when unknown. */
static uint64_t vm_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long long pages = 0;
    if (f) {
        if (fscanf(f, "%llu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    return (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* gl_run_sim with opts->sandbox (backend.h): the run in a sandboxed child. Its address
 * space is bounded at what this process maps now, plus four times the memory budget
 * (the checkers' shadows and the initcheck bits of the simulated memory are host memory
 * the budget does not count), plus 1 GiB; a CPU-time limit backs the simulator's own
 * wall-clock limit. */
static gl_status run_sim_sandboxed(const gl_spec *spec, const ptx_module_t *m, const char *kernel,
                                   const gl_run_opts *opts, gl_run_result *res, gl_error *err)
{
    if (!gl_sandbox_available()) {
        take_buffers(spec, NULL, NULL, 0, res->buffers); /* the initial contents */
        return gl_fail(err, GL_ERR_TOOL,
                       "cannot run %s in a sandbox: the kernel offers no Landlock (Linux 5.13 "
                       "or later with landlock in its LSM list)",
                       kernel);
    }
    const uint64_t limit = opts->memory_limit ? opts->memory_limit : gl_run_memory_limit_default();
    const double timeout = opts->timeout_s > 0 ? opts->timeout_s : GL_TIMEOUT_DEFAULT_S;
    sandbox_run *a = calloc(1, sizeof *a);
    char dir[4096];
    if (!a || gl_tmpdir_make(dir, sizeof dir, "run") != 0) {
        const int e = errno;
        free(a);
        take_buffers(spec, NULL, NULL, 0, res->buffers);
        return gl_fail(err, GL_ERR_TOOL, "cannot make a folder for the sandboxed run: %s",
                       strerror(e));
    }
    *a = (sandbox_run){spec, m, kernel, opts, res, ""};
    snprintf(a->jit, sizeof a->jit, "%s/jit", dir);
    const gl_sandbox_opts so = {.dir = dir,
                                .address_space = vm_bytes() + 4 * limit + (UINT64_C(1) << 30),
                                .cpu_s = (unsigned)(2 * timeout) + 60};
    gl_child ch;
    const int started = gl_sandbox_spawn(&ch, &so, sandboxed_run, a);
    const int spawn_errno = errno;
    free(a);
    if (started != 0) {
        gl_tmpdir_remove(dir);
        take_buffers(spec, NULL, NULL, 0, res->buffers);
        return gl_fail(err, GL_ERR_TOOL, "cannot start the sandboxed run: %s",
                       strerror(spawn_errno));
    }
    /* its result; the simulator stops the launch at the time limit, so this deadline
     * only catches a child that hangs elsewhere */
    const double deadline = gl_child_now() + 2 * timeout + 60;
    /* what the child may announce: never more than the largest buffer (a child that
     * lost its mind cannot make this process allocate what it likes) */
    uint64_t most = RUN_MSG_MAX;
    for (int i = 0; res->buffers && i < res->nargs; i++)
        most = res->buffers[i].bytes > most ? res->buffers[i].bytes : most;
    gl_child_msg in = {0};
    gl_status st = GL_ERR_FAULT;
    int done = 0;
    gl_msg_rc rc = GL_MSG_OK;
    while (!done && (rc = gl_child_recv(ch.fd, &in, most, deadline)) == GL_MSG_OK) {
        done = take_message(opts, res, &in, &st, err);
        if (done < 0)
            rc = GL_MSG_ERROR;
        if (done < 0)
            break;
    }
    gl_child_msg_free(&in);
    gl_child_exit ex;
    gl_child_stop(&ch, GL_CHILD_FOREVER, &ex);
    gl_tmpdir_remove(dir);
    if (done != 1) {
        char lim[32], why[160];
        gl_format_bytes(lim, sizeof lim, so.address_space);
        if (rc == GL_MSG_TIMEOUT)
            snprintf(why, sizeof why, "it ran past %.0f s and was stopped", 2 * timeout + 60);
        else if (ex.signal == SIGXCPU || (ex.signal == SIGKILL && rc != GL_MSG_ERROR))
            snprintf(why, sizeof why,
                     "it was killed (%s): past its CPU-time limit of %u s, or the machine ran "
                     "out of memory (its address space may reach %s)",
                     strsignal(ex.signal), so.cpu_s, lim);
        else if (ex.signal)
            snprintf(why, sizeof why, "it was killed by signal %d (%s)", ex.signal,
                     strsignal(ex.signal));
        else
            snprintf(why, sizeof why, "it sent no result (%s)",
                     rc == GL_MSG_ERROR ? "a message that does not fit" : "exit");
        snprintf(res->fault.message, sizeof res->fault.message,
                 "the simulation of '%s' did not finish in its sandbox: %s", kernel, why);
        st =
            gl_fail(err, GL_ERR_FAULT, "%s: %s", gl_display_path(spec->source), res->fault.message);
    }
    if (take_buffers(spec, NULL, NULL, 0, res->buffers) != 0 && st == GL_OK) /* any not sent */
        st = gl_fail(err, GL_ERR_NOMEM, "out of memory for the buffers");
    return st;
}

gl_status gl_run_ptx(const gl_spec *spec, const char *ptx, const gl_run_opts *opts,
                     gl_run_result *res, gl_error *err)
{
    gl_run_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    memset(res, 0, sizeof *res);
    res->stdout_text = strdup("");
    res->ptx = strdup(ptx);

    int use_gpu = 0;
    gl_status st = choose_backend(opts->backend, &use_gpu, res->note, sizeof res->note);
    if (st != GL_OK)
        return st;
    res->backend = use_gpu ? GL_BACKEND_GPU : GL_BACKEND_SIM;

    /* The simulator's parser also tells which kernels exist and their parameters, so the
     * spec is checked against the kernel before either back end runs it. */
    ptx_module_t *m = NULL;
    char *diag = NULL;
    /* diagnostics name the source's line where the PTX has line info (inline asm), else
     * "k.cu (PTX):33:37": never a PTX line as if it were the source's */
    char ptx_name[PATH_MAX + 8];
    snprintf(ptx_name, sizeof ptx_name, "%s (PTX)", spec->source);
    sim_status ps = ptx_parse(ptx, strlen(ptx), ptx_name, &m, &diag);
    /* the simulator cannot run it: why, for the simulator or for AUTO's fallback below.
     * The PTX came from the learner's CUDA C: malformed PTX is bad inline asm, which
     * ptxas would reject too: a compile error (exit 1), as an instruction the simulator
     * lacks is (GL_ERR_UNSUPPORTED, exit 1). */
    const gl_status parse_st = ps == SIM_ERR_UNSUPPORTED ? GL_ERR_UNSUPPORTED : GL_ERR_COMPILE;
    if (ps != SIM_OK && !use_gpu) {
        st = gl_fail(err, parse_st, "%s", diag ? diag : "PTX could not be parsed");
        free(diag);
        return st;
    }

    /* an instruction the PTX's own target lacks (inline asm; NVRTC runs no ptxas):
     * named, with the first target that has it, on either back end (from the parsed
     * module's op facts; PTX the simulator cannot parse goes to the GPU's own check) */
    const char *origin = NULL;
    gl_run_profile(spec, opts, &origin);
    st = gl_arch_check_ptx_features(m, m ? ptx_module_target_sm(m) : 0, spec->source, origin, err);
    if (st != GL_OK)
        goto out;

    const char *kernel = spec->kernel;
    if (m) {
        kernel = gl_run_resolve_kernel(m, spec->kernel);
        if (!kernel) {
            char names[1024];
            list_entries(m, names, sizeof names);
            st = gl_fail(err, GL_ERR_INPUT, "%s: kernel: no kernel '%s' in %s (it has: %s)",
                         spec->file, spec->kernel, spec->source, names[0] ? names : "none");
            goto out;
        }
        st = check_params(spec, m, kernel, err);
        if (st != GL_OK)
            goto out;
    }

    /* the GPU copies host buffers in; the simulator generates them in its memory */
    st = use_gpu ? spec_buffers_new(spec, &res->buffers, err)
                 : spec_buffers_sized(spec, &res->buffers, err);
    if (st != GL_OK)
        goto out;
    res->nargs = spec->nargs;

    if (use_gpu) {
        /* GPU: isolation, timing. AUTO runs on the simulator when the worker
         * could not open the GPU. */
        gl_error ge = {0};
        int opened = 0;
        st = run_on_gpu(spec, ptx, kernel, m, opts, res, &opened, &ge);
        if (st != GL_OK && !opened && opts->backend == GL_BACKEND_AUTO) {
            snprintf(res->note, sizeof res->note, "%.400s: running on the simulator", ge.msg);
            res->backend = GL_BACKEND_SIM;
            memset(&res->fault, 0, sizeof res->fault);
            if (m)
                st = gl_run_sim(spec, m, kernel, opts, res, err);
            else /* the simulator cannot run it either: say why */
                st = gl_fail(err, parse_st, "%s", diag ? diag : "PTX could not be parsed");
        } else if (st != GL_OK && err) {
            *err = ge;
        }
    } else {
        st = gl_run_sim(spec, m, kernel, opts, res, err);
    }
    if (res->backend == GL_BACKEND_SIM && opts->time_reps > 0) {
        size_t used = strlen(res->note);
        snprintf(res->note + used, sizeof res->note - used,
                 "%stiming needs a GPU (the simulator's speed says nothing about a GPU's): "
                 "not timed",
                 used ? "; " : "");
    }
out:
    free(diag);
    ptx_module_free(m);
    return st;
}

/* The GPU's own target ("sm_90") into out, asked of the GPU worker once per process.
 * 0 when there is no GPU. */
static int gpu_own_arch(char out[16])
{
    static int asked, cc;
    if (!asked) {
        asked = 1;
        gl_device_info info;
        char note[256];
        gl_error e = {0};
        if (gl_run_device_query(GL_BACKEND_GPU, &info, note, sizeof note, &e) == GL_OK &&
            !info.is_simulator && info.compute_major > 0)
            cc = info.compute_major * 10 + info.compute_minor;
    }
    if (cc > 0)
        snprintf(out, 16, "sm_%d", cc);
    return cc > 0;
}

const sim_device_model *gl_run_profile(const gl_spec *spec, const gl_run_opts *opts,
                                       const char **origin)
{
    const sim_device_model *d = NULL;
    if (opts && opts->compile.arch && *opts->compile.arch &&
        (d = sim_device_find(opts->compile.arch))) {
        *origin = opts->compile.arch_origin ? opts->compile.arch_origin : "--arch";
        return d;
    }
    if (spec && spec->arch[0] && (d = sim_device_find(spec->arch))) {
        *origin = "\"arch\" of the launch";
        return d;
    }
    *origin = "the default";
    return sim_device();
}

gl_status gl_run_spec(const gl_spec *spec, const gl_run_opts *opts, gl_run_result *res,
                      gl_error *err)
{
    memset(res, 0, sizeof *res);
    gl_run_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    gl_compiled c = {0};
    const char *src = opts->source_override ? opts->source_override : spec->source;
    gl_run_opts o = *opts;
    char gpu_arch[16];
    if ((!o.compile.arch || !*o.compile.arch) && !spec->arch[0] && o.backend != GL_BACKEND_SIM &&
        !(o.backend == GL_BACKEND_AUTO && gpu_disabled()) && gpu_own_arch(gpu_arch)) {
        o.compile.arch = gpu_arch; /* the GPU's own compute capability */
        o.compile.arch_origin = "the GPU's own";
    } else {
        gl_run_profile(spec, &o, &o.compile.arch_origin);
        if (!o.compile.arch || !*o.compile.arch)
            o.compile.arch = spec->arch[0] ? spec->arch : NULL;
    }
    gl_status st = gl_compile_cuda(src, &o.compile, &c, err);
    if (st != GL_OK) {
        res->diags = c.diags, res->ndiags = c.ndiags; /* the errors, for views */
        c.diags = NULL;
        gl_compiled_free(&c);
        return st;
    }
    o.regs = c.regs;
    o.regs_why = c.regs_why;
    st = gl_run_ptx(spec, c.ptx, &o, res, err);
    res->diags = c.diags, res->ndiags = c.ndiags;
    c.diags = NULL;
    res->compiler = c.used;
    res->cached = c.cached;
    snprintf(res->compile_command, sizeof res->compile_command, "%s", c.command);
    res->compile_log = c.log && *c.log ? strdup(c.log) : NULL;
    gl_compiled_free(&c);
    return st;
}

int gl_run_ptx_kernels(const char *ptx, char ***names, int **nparams)
{
    *names = NULL;
    *nparams = NULL;
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status ps = ptx_parse(ptx, strlen(ptx), "kernels.ptx", &m, &diag);
    free(diag);
    if (ps != SIM_OK)
        return -1;
    const int n = ptx_entry_count(m);
    char **nm = calloc((size_t)n + 1, sizeof *nm);
    int *np = calloc((size_t)n + 1, sizeof *np);
    int ok = nm && np;
    for (int i = 0; ok && i < n; i++) {
        const char *name = ptx_entry_name(m, i);
        ok = (nm[i] = strdup(name)) != NULL && ptx_entry_params(m, name, NULL, 0, &np[i]) == SIM_OK;
    }
    ptx_module_free(m);
    if (!ok) {
        gl_run_ptx_kernels_free(nm, np, n);
        return -1;
    }
    *names = nm;
    *nparams = np;
    return n;
}

void gl_run_ptx_kernels_free(char **names, int *nparams, int n)
{
    for (int i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
    free(nparams);
}

gl_status gl_run_device_query(gl_backend_kind kind, gl_device_info *info, char *note,
                              size_t note_len, gl_error *err)
{
    memset(info, 0, sizeof *info);
    int use_gpu = 0;
    gl_status st = choose_backend(kind, &use_gpu, note, note_len);
    if (st != GL_OK)
        return st;
    if (use_gpu) {
        /* In a short-lived worker: this process stays free of CUDA (worker.h). */
        gl_worker_job job = {.info_only = 1};
        gl_worker_result wr;
        gl_error ge = {0};
        st = gl_worker_run(&job, &wr, &ge);
        int opened = wr.opened;
        if (st == GL_OK && wr.have_info)
            *info = wr.info;
        else if (st == GL_OK)
            st = gl_fail(&ge, GL_ERR_CUDA, "the GPU worker sent no device properties");
        gl_worker_result_free(&wr);
        if (st == GL_OK)
            return GL_OK;
        if (kind == GL_BACKEND_GPU || opened) {
            if (err)
                *err = ge;
            return st;
        }
        snprintf(note, note_len, "%s: showing the simulator's model", ge.msg);
    }
    gl_arch_device_info(sim_device(), info);
    return GL_OK;
}

/* The blocks per SM registers allow (gl_run_occupancy_of, backend.h): 0 when one block does
 * not fit, INT_MAX when they set no limit (0 registers). */
static int blocks_by_regs(const gl_device_info *d, int regs, int warp, int warps_per_block)
{
    const int unit = d->reg_alloc_unit > 0 ? d->reg_alloc_unit : 256;
    const int parts = d->sm_partitions > 0 ? d->sm_partitions : 4;
    const int max_thread = d->regs_per_thread > 0 ? d->regs_per_thread : 255;
    const int per_block = d->regs_per_block > 0 ? d->regs_per_block : d->regs_per_sm;
    const int per_warp = (regs * warp + unit - 1) / unit * unit;
    if (per_warp == 0)
        return INT_MAX;
    /* the hardware's check assumes a block's warps spread over every partition */
    const int warps_rounded = (warps_per_block + parts - 1) / parts * parts;
    if (regs > max_thread || (int64_t)per_warp * warps_rounded > per_block)
        return 0;
    return d->regs_per_sm / parts / per_warp * parts / warps_per_block;
}

void gl_run_occupancy_of(const gl_device_info *d, const unsigned grid[3], const unsigned block[3],
                         unsigned shared_bytes, int regs, int blocks_per_sm_known, gl_occupancy *o)
{
    memset(o, 0, sizeof *o);
    const uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
    const uint64_t blocks = (uint64_t)grid[0] * grid[1] * grid[2];
    if (threads == 0 || blocks == 0)
        return;
    const int warp = d->warp_size > 0 ? d->warp_size : 32;
    o->warps_per_block = (int)((threads + (uint64_t)warp - 1) / (uint64_t)warp);
    o->max_warps_per_sm = d->max_threads_per_sm > 0 ? d->max_threads_per_sm / warp : 64;
    o->sm_count = d->sm_count > 0 ? d->sm_count : 1;
    o->regs_known = regs >= 0;
    o->regs_per_thread = regs > 0 ? regs : 0;
    o->bound = regs < 0 && blocks_per_sm_known <= 0;
    o->shared_bytes = shared_bytes;
    int bps = d->max_blocks_per_sm > 0 ? d->max_blocks_per_sm : 32;
    const char *lim = "blocks";
    const int by_threads = o->max_warps_per_sm / o->warps_per_block;
    if (by_threads < bps)
        bps = by_threads, lim = "threads";
    /* a block's shared memory plus the driver's reserve, in allocation units (the
     * Toolkit's cuda_occupancy.h, cudaOccMaxBlocksPerSMSmemLimit) */
    const size_t taken =
        sim_shared_taken(shared_bytes, d->shared_reserved_per_block, d->shared_alloc_unit);
    if (taken && d->shared_bytes_per_sm && d->shared_bytes_per_sm / taken < (size_t)bps)
        bps = (int)(d->shared_bytes_per_sm / taken), lim = "shared memory";
    if (bps < 1) /* more than an SM has: the launch fails before occupancy matters */
        bps = 1;
    if (regs >= 0 && d->regs_per_sm > 0) {
        const int by_regs = blocks_by_regs(d, regs, warp, o->warps_per_block);
        if (by_regs < bps)
            bps = by_regs, lim = "registers";
    }
    if (blocks_per_sm_known > 0) {
        if (blocks_per_sm_known < bps && regs > 0)
            lim = "registers";
        bps = blocks_per_sm_known;
    }
    o->blocks_per_sm = bps;
    snprintf(o->limiter, sizeof o->limiter, "%s", lim);
    o->blocks = blocks;
    o->valid = 1;
    if (bps == 0) /* one block needs more registers than an SM gives a block */
        return;
    o->theoretical = (double)o->blocks_per_sm * o->warps_per_block / o->max_warps_per_sm;
    if (o->theoretical > 1)
        o->theoretical = 1;
    const uint64_t per_wave = (uint64_t)o->blocks_per_sm * (uint64_t)o->sm_count;
    const uint64_t full = blocks / per_wave, rest = blocks % per_wave;
    o->waves = full + (rest != 0);
    o->sms_used = blocks < (uint64_t)o->sm_count ? (int)blocks : o->sm_count;
    /* warp slots of the busy SMs: every SM in a full wave, min(sm_count, rest) in the last */
    const double slots = ((double)full * o->sm_count +
                          (double)(rest < (uint64_t)o->sm_count ? rest : (uint64_t)o->sm_count)) *
                         o->max_warps_per_sm;
    o->achieved = (double)blocks * o->warps_per_block / slots;
    if (o->achieved > o->theoretical)
        o->achieved = o->theoretical;
}

void gl_run_occupancy_describe(const gl_occupancy *o, int modelled, char *buf, size_t n)
{
    size_t used = 0;
#define MORE(...) (used += used < n ? (size_t)snprintf(buf + used, n - used, __VA_ARGS__) : 0)
    if (modelled && o->regs_known)
        MORE("occupancy (modelled, %d registers per thread)", o->regs_per_thread);
    else if (o->bound)
        MORE("occupancy (%sregisters unknown)", modelled ? "modelled, " : "");
    else
        MORE("occupancy%s", modelled ? " (modelled)" : "");
    if (o->blocks_per_sm == 0) {
        MORE(": 0%% theoretical (limit: registers): a block of %d warps needs more than the "
             "registers an SM gives one block; a GPU refuses this launch (too many resources "
             "requested for launch)",
             o->warps_per_block);
        if (!modelled && o->regs_known)
            MORE("; %d registers per thread", o->regs_per_thread);
        return;
    }
    MORE(": %s%.0f%% theoretical (limit: %s), about %.0f%% achieved", o->bound ? "at most " : "",
         o->theoretical * 100, o->limiter, o->achieved * 100);
    const uint64_t per_wave = (uint64_t)o->blocks_per_sm * (uint64_t)o->sm_count;
    const uint64_t rest = per_wave ? o->blocks % per_wave : 0;
    if (o->waves <= 1 && o->sms_used < o->sm_count)
        MORE(" on the %d SM%s with work: %d of %d SMs idle", o->sms_used,
             o->sms_used == 1 ? "" : "s", o->sm_count - o->sms_used, o->sm_count);
    else if (o->waves <= 1)
        MORE(": %llu blocks on %d SMs", (unsigned long long)o->blocks, o->sm_count);
    else
        MORE(": %llu blocks in %llu waves on %d SMs", (unsigned long long)o->blocks,
             (unsigned long long)o->waves, o->sm_count);
    if (o->waves > 1 && rest && rest < (uint64_t)o->sm_count)
        MORE(", the last on %llu", (unsigned long long)rest);
    if (!modelled && o->regs_per_thread > 0) /* the driver's count (CU_FUNC_ATTRIBUTE_NUM_REGS) */
        MORE("; %d registers per thread", o->regs_per_thread);
    if (o->bound)
        MORE("; registers: %s", o->regs_why[0] ? o->regs_why : "not counted");
#undef MORE
}

unsigned gl_run_sim_threads_parse(const char *s)
{
    char *end;
    errno = 0;
    const unsigned long n = strtoul(s, &end, 10);
    return *s >= '0' && *s <= '9' && !*end && !errno && n >= 1 && n <= GL_SIM_THREADS_MAX
               ? (unsigned)n
               : 0;
}

gl_sim_tier gl_run_sim_tier_parse(const char *s)
{
    return strcmp(s, "interp") == 0 ? GL_TIER_INTERP
           : strcmp(s, "jit") == 0  ? GL_TIER_JIT
           : strcmp(s, "auto") == 0 ? GL_TIER_AUTO
                                    : GL_TIER_DEFAULT;
}
