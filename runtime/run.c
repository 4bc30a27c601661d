/* run.c — running a launch spec on a back end: compile, check the spec against the
 * kernel's parameters, allocate, copy in, launch, copy back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/backend.h"

const char *gl_backend_name(gl_backend_kind k)
{
    switch (k) {
    case GL_BACKEND_SIM: return "sim";
    case GL_BACKEND_GPU: return "gpu";
    default: return "auto";
    }
}

void gl_run_result_free(gl_run_result *r)
{
    if (!r)
        return;
    spec_buffers_free(r->buffers, r->nargs);
    free(r->stdout_text);
    free(r->ptx);
    memset(r, 0, sizeof *r);
}

/* GPULEARN_NO_GPU=1 makes `auto` behave as on a machine without a GPU (tests, demos). */
static int gpu_disabled(void)
{
    const char *e = getenv("GPULEARN_NO_GPU");
    return e && *e && strcmp(e, "0") != 0;
}

/* Opens the GPU for `kind`; *g stays NULL when the simulator should run instead
 * (AUTO without a working GPU: note says why). */
static gl_status choose_backend(gl_backend_kind kind, gpu_t **g, char *note, size_t note_len,
                                gl_error *err)
{
    *g = NULL;
    if (note_len)
        note[0] = '\0';
    if (kind == GL_BACKEND_SIM)
        return GL_OK;
    if (kind == GL_BACKEND_AUTO && gpu_disabled()) {
        snprintf(note, note_len, "GPU disabled by GPULEARN_NO_GPU: running on the simulator");
        return GL_OK;
    }
    gl_error e = {0};
    gl_status st = gpu_open(g, &e);
    if (st == GL_OK)
        return GL_OK;
    *g = NULL;
    if (kind == GL_BACKEND_GPU) {
        if (err)
            *err = e;
        return st;
    }
    snprintf(note, note_len, "%s: running on the simulator", e.msg);
    return GL_OK;
}

/* Finds the .entry the spec names: exact, else a C++ mangled name _Z<len><name>... */
static const char *resolve_kernel(const ptx_module_t *m, const char *want)
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
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
                                 ptx_entry_name(m, i));
}

/* Checks the spec's arguments against the kernel's .param list. */
static gl_status check_params(const gl_spec *spec, const ptx_module_t *m, const char *kernel,
                              gl_error *err)
{
    ptx_param_info params[64];
    int count = 0;
    if (ptx_entry_params(m, kernel, params, 64, &count) != SIM_OK)
        return gl_fail(err, GL_ERR_INPUT, "%s: kernel: no kernel '%s'", spec->file, kernel);
    if (count != spec->nargs)
        return gl_fail(err, GL_ERR_LAUNCH,
                       "%s: args: kernel '%s' takes %d parameter%s, the spec gives %d",
                       spec->file, spec->kernel, count, count == 1 ? "" : "s", spec->nargs);
    for (int i = 0; i < count && i < 64; i++) {
        const gl_arg *a = &spec->args[i];
        size_t want = a->is_ptr ? 8 : gl_type_size(a->type);
        if (params[i].size != want)
            return gl_fail(err, GL_ERR_LAUNCH,
                           "%s: args[%d]: '%s' is %s%s (%zu bytes) but parameter %d of "
                           "kernel '%s' is %u bytes",
                           spec->file, i, a->name, gl_type_name(a->type), a->is_ptr ? "*" : "",
                           want, i, spec->kernel, params[i].size);
    }
    return GL_OK;
}

/* Raw bytes of a scalar argument, in its type's width (little-endian host = device). */
static void scalar_bytes(const gl_arg *a, uint64_t *slot)
{
    *slot = 0;
    switch (a->type) {
    case GL_I8: { int8_t v = (int8_t)a->value.i; memcpy(slot, &v, 1); break; }
    case GL_U8: { uint8_t v = (uint8_t)a->value.u; memcpy(slot, &v, 1); break; }
    case GL_I16: { int16_t v = (int16_t)a->value.i; memcpy(slot, &v, 2); break; }
    case GL_U16: { uint16_t v = (uint16_t)a->value.u; memcpy(slot, &v, 2); break; }
    case GL_I32: { int32_t v = (int32_t)a->value.i; memcpy(slot, &v, 4); break; }
    case GL_U32: { uint32_t v = (uint32_t)a->value.u; memcpy(slot, &v, 4); break; }
    case GL_I64: case GL_U64: memcpy(slot, &a->value.u, 8); break;
    case GL_F32: { float v = (float)a->value.f; memcpy(slot, &v, 4); break; }
    case GL_F64: memcpy(slot, &a->value.f, 8); break;
    }
}

/* "kernel.cu:5: block (3,0,0) thread (232,0,0): <message>" */
static void describe_fault(const gl_spec *spec, const sim_fault *f, gl_error *err)
{
    char where[1200];
    if (f->src_file && f->src_line > 0)
        snprintf(where, sizeof where, "%s:%d", gl_display_path(f->src_file), f->src_line);
    else if (f->ptx_line > 0)
        snprintf(where, sizeof where, "%s (PTX line %d)", gl_display_path(spec->source),
                 f->ptx_line);
    else
        snprintf(where, sizeof where, "%s", gl_display_path(spec->source));
    if (f->kind == SIM_FAULT_DEADLOCK || f->kind == SIM_FAULT_UNSUPPORTED)
        gl_fail(err, GL_ERR_FAULT, "%s: %s", where, f->message);
    else
        gl_fail(err, GL_ERR_FAULT, "%s: block (%u,%u,%u) thread (%u,%u,%u): %s", where,
                f->block[0], f->block[1], f->block[2], f->thread[0], f->thread[1],
                f->thread[2], f->message);
}

static gl_status run_on_sim(const gl_spec *spec, const ptx_module_t *m, const char *kernel,
                            const gl_run_opts *opts, gl_run_result *res, gl_error *err)
{
    sim_config cfg = {.step_limit = opts ? opts->step_limit : 0};
    sim_t *s = sim_new(&cfg);
    if (!s)
        return gl_fail(err, GL_ERR_NOMEM, "out of memory creating the simulator");
    gl_status st = GL_OK;
    uint64_t *dptr = calloc((size_t)spec->nargs + 1, sizeof *dptr);
    uint64_t *slots = calloc((size_t)spec->nargs + 1, sizeof *slots);
    void **params = calloc((size_t)spec->nargs + 1, sizeof *params);
    if (!dptr || !slots || !params) {
        st = gl_fail(err, GL_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int i = 0; i < spec->nargs; i++) {
        const gl_arg *a = &spec->args[i];
        if (a->is_ptr) {
            if (sim_malloc(s, res->buffers[i].bytes, a->name, &dptr[i]) != SIM_OK ||
                sim_memcpy_htod(s, dptr[i], res->buffers[i].data, res->buffers[i].bytes) !=
                    SIM_OK) {
                st = gl_fail(err, GL_ERR_NOMEM, "%s: args[%d]: cannot allocate %zu bytes",
                             spec->file, i, res->buffers[i].bytes);
                goto done;
            }
            slots[i] = dptr[i];
        } else {
            scalar_bytes(a, &slots[i]);
        }
        params[i] = &slots[i];
    }
    sim_result sr;
    sim_status ss = sim_launch(s, m, kernel, spec->grid, spec->block,
                               spec->dynamic_shared_bytes, params, &sr);
    res->fault = sr.fault;
    res->stats = sr.stats;
    free(res->stdout_text);
    res->stdout_text = sr.printf_out ? strndup(sr.printf_out, sr.printf_len) : strdup("");
    sim_result_free(&sr);
    for (int i = 0; i < spec->nargs; i++)
        if (spec->args[i].is_ptr)
            sim_memcpy_dtoh(s, res->buffers[i].data, dptr[i], res->buffers[i].bytes);
    switch (ss) {
    case SIM_OK: break;
    case SIM_ERR_FAULT:
        describe_fault(spec, &res->fault, err);
        st = res->fault.kind == SIM_FAULT_UNSUPPORTED ? GL_ERR_UNSUPPORTED : GL_ERR_FAULT;
        if (err)
            err->status = st;
        break;
    case SIM_ERR_LAUNCH:
        st = gl_fail(err, GL_ERR_LAUNCH, "%s: %s", spec->file, res->fault.message);
        break;
    case SIM_ERR_NOMEM: st = gl_fail(err, GL_ERR_NOMEM, "simulator out of memory"); break;
    default:
        st = gl_fail(err, GL_ERR_LAUNCH, "%s: launch failed: %s", spec->file,
                     res->fault.message);
        break;
    }
done:
    free(dptr);
    free(slots);
    free(params);
    sim_free(s);
    return st;
}

static gl_status run_on_gpu(gpu_t *g, const gl_spec *spec, const char *ptx, const char *kernel,
                            gl_run_result *res, gl_error *err)
{
    gl_status st = gpu_load_ptx(g, ptx, err);
    if (st != GL_OK)
        return st;
    uint64_t *slots = calloc((size_t)spec->nargs + 1, sizeof *slots);
    void **params = calloc((size_t)spec->nargs + 1, sizeof *params);
    if (!slots || !params) {
        free(slots);
        free(params);
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    }
    for (int i = 0; i < spec->nargs && st == GL_OK; i++) {
        const gl_arg *a = &spec->args[i];
        if (a->is_ptr) {
            st = gpu_malloc(g, res->buffers[i].bytes, &slots[i], err);
            if (st == GL_OK)
                st = gpu_htod(g, slots[i], res->buffers[i].data, res->buffers[i].bytes, err);
        } else {
            scalar_bytes(a, &slots[i]);
        }
        params[i] = &slots[i];
    }
    char *out = NULL;
    if (st == GL_OK)
        st = gpu_launch(g, kernel, spec->grid, spec->block, spec->dynamic_shared_bytes, params,
                        &out, &res->elapsed_ms, err);
    if (out) {
        free(res->stdout_text);
        res->stdout_text = out;
    }
    for (int i = 0; i < spec->nargs && st == GL_OK; i++)
        if (spec->args[i].is_ptr)
            st = gpu_dtoh(g, res->buffers[i].data, slots[i], res->buffers[i].bytes, err);
    free(slots);
    free(params);
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

    gpu_t *g = NULL;
    gl_status st = choose_backend(opts->backend, &g, res->note, sizeof res->note, err);
    if (st != GL_OK)
        return st;
    res->backend = g ? GL_BACKEND_GPU : GL_BACKEND_SIM;

    /* The simulator's parser also tells which kernels exist and their parameters, so the
     * spec is checked against the kernel before either back end runs it. */
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status ps = ptx_parse(ptx, strlen(ptx), spec->source, &m, &diag);
    if (ps != SIM_OK && !g) {
        st = gl_fail(err, ps == SIM_ERR_UNSUPPORTED ? GL_ERR_UNSUPPORTED : GL_ERR_INPUT,
                     "%s", diag ? diag : "PTX could not be parsed");
        free(diag);
        return st;
    }
    free(diag);

    const char *kernel = spec->kernel;
    if (m) {
        kernel = resolve_kernel(m, spec->kernel);
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

    st = spec_buffers_new(spec, &res->buffers, err);
    if (st != GL_OK)
        goto out;
    res->nargs = spec->nargs;

    st = g ? run_on_gpu(g, spec, ptx, kernel, res, err)
           : run_on_sim(spec, m, kernel, opts, res, err);
out:
    ptx_module_free(m);
    gpu_close(g);
    return st;
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
    gl_status st = gl_compile_cuda(src, &opts->compile, &c, err);
    if (st != GL_OK)
        return st;
    st = gl_run_ptx(spec, c.ptx, opts, res, err);
    res->compiler = c.used;
    gl_compiled_free(&c);
    return st;
}

gl_status gl_device_query(gl_backend_kind kind, gl_device_info *info, char *note,
                          size_t note_len, gl_error *err)
{
    memset(info, 0, sizeof *info);
    gpu_t *g = NULL;
    gl_status st = choose_backend(kind, &g, note, note_len, err);
    if (st != GL_OK)
        return st;
    if (g) {
        st = gpu_device_info(g, info, err);
        gpu_close(g);
        return st;
    }
    const sim_device_model *d = sim_device();
    snprintf(info->name, sizeof info->name, "%s", d->name);
    info->is_simulator = 1;
    info->compute_major = d->compute_major;
    info->compute_minor = d->compute_minor;
    info->sm_count = d->sm_count;
    info->warp_size = d->warp_size;
    info->max_threads_per_block = d->max_threads_per_block;
    info->max_threads_per_sm = d->max_threads_per_block;
    for (int i = 0; i < 3; i++) {
        info->max_block_dim[i] = d->max_block_dim[i];
        info->max_grid_dim[i] = (int)d->max_grid_dim[i];
    }
    info->shared_bytes_per_block = d->shared_bytes_per_block;
    info->shared_bytes_per_sm = d->shared_bytes_per_block;
    return GL_OK;
}
