/* sim.c — simulator instance, simulated memory, launches and CTA scheduling.
 *
 * Blocks run one after another in linear order (x fastest). Within a block, warps are
 * issued round-robin, one warp instruction each turn (sim_warp_step in sim_exec.c).
 * Barriers (PTX ISA §9.7.13.x bar/barrier): a thread that executes bar.sync waits;
 * when no warp of the CTA can issue, the waiting threads are released if every
 * non-exited thread waits at the same barrier id, as on Volta and later GPUs (verified
 * on an H200: tests/cli/bar_divergent.golden.json); otherwise the CTA is deadlocked.
 * sim_config.barrier_strict makes it stricter, like compute-sanitizer's synccheck:
 * every thread must wait at the same bar.sync, and exited threads make a deadlock.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"

static const sim_device_model device_model = {
    .name = "gpulearn SIMT simulator",
    .sm_count = 4,
    .warp_size = 32,
    .max_threads_per_block = 1024,
    .max_block_dim = {1024, 1024, 64},
    .max_grid_dim = {2147483647u, 65535u, 65535u},
    .shared_bytes_per_block = 48 * 1024,
    .compute_major = 7,
    .compute_minor = 5,
};

const sim_device_model *sim_device(void)
{
    return &device_model;
}

sim_t *sim_new(const sim_config *cfg)
{
    sim_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (cfg)
        s->cfg = *cfg;
    s->next = SIM_GLOBAL_BASE;
    return s;
}

void sim_free(sim_t *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nallocs; i++)
        free(s->allocs[i].data);
    free(s->allocs);
    free(s->var_addr);
    free(s);
}

static sim_status alloc_global(sim_t *s, size_t bytes, const char *label, uint64_t align,
                               uint64_t *dptr)
{
    if (align < 256)
        align = 256;
    uint64_t base = (s->next + align - 1) / align * align;
    if (bytes > SIM_SHARED_WIN - base - 4096)
        return SIM_ERR_NOMEM;
    if (s->nallocs == s->cap) {
        int nc = s->cap ? s->cap * 2 : 16;
        sim_alloc *na = realloc(s->allocs, (size_t)nc * sizeof *na);
        if (!na)
            return SIM_ERR_NOMEM;
        s->allocs = na;
        s->cap = nc;
    }
    unsigned char *data = calloc(1, bytes ? bytes : 1);
    if (!data)
        return SIM_ERR_NOMEM;
    sim_alloc *a = &s->allocs[s->nallocs++];
    a->base = base;
    a->size = bytes;
    a->data = data;
    snprintf(a->label, sizeof a->label, "%s", label ? label : "");
    /* an unmapped gap of at least 256 bytes after every allocation */
    s->next = base + bytes + 256;
    *dptr = base;
    return SIM_OK;
}

sim_status sim_malloc(sim_t *s, size_t bytes, const char *label, uint64_t *dptr)
{
    return alloc_global(s, bytes, label, 256, dptr);
}

/* The allocation holding [addr, addr+size), or NULL. */
static sim_alloc *find_alloc(sim_t *s, uint64_t addr, size_t size)
{
    if (s->last < s->nallocs) {
        sim_alloc *a = &s->allocs[s->last];
        if (addr >= a->base && addr - a->base <= a->size && size <= a->size - (addr - a->base))
            return a;
    }
    int lo = 0, hi = s->nallocs - 1, found = -1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (s->allocs[mid].base <= addr) {
            found = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    if (found < 0)
        return NULL;
    sim_alloc *a = &s->allocs[found];
    if (addr - a->base > a->size || size > a->size - (addr - a->base))
        return NULL;
    s->last = found;
    return a;
}

sim_status sim_memcpy_htod(sim_t *s, uint64_t dst, const void *src, size_t bytes)
{
    sim_alloc *a = find_alloc(s, dst, bytes);
    if (!a)
        return SIM_ERR_LAUNCH;
    if (bytes)
        memcpy(a->data + (dst - a->base), src, bytes);
    return SIM_OK;
}

sim_status sim_memcpy_dtoh(sim_t *s, void *dst, uint64_t src, size_t bytes)
{
    sim_alloc *a = find_alloc(s, src, bytes);
    if (!a)
        return SIM_ERR_LAUNCH;
    if (bytes)
        memcpy(dst, a->data + (src - a->base), bytes);
    return SIM_OK;
}

void sim_result_free(sim_result *r)
{
    if (!r)
        return;
    free(r->printf_out);
    r->printf_out = NULL;
    r->printf_len = 0;
}

/* ------------------------------------------------------------------ faults */

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

void sim_where(const sim_ctx *c, const ptx_insn *in, char *buf, size_t n)
{
    const char *f = ptx_source_file(c->m, in->src_file);
    if (f && in->src_line > 0)
        snprintf(buf, n, "%s:%d (PTX line %d)", base_name(f), in->src_line, in->ptx_line);
    else
        snprintf(buf, n, "PTX line %d", in->ptx_line);
}

static void thread_idx(const sim_ctx *c, unsigned t, unsigned out[3])
{
    out[0] = t % c->block[0];
    out[1] = (t / c->block[0]) % c->block[1];
    out[2] = t / (c->block[0] * c->block[1]);
}

void sim_fault_at(sim_ctx *c, unsigned t, const ptx_insn *in, sim_fault_kind kind,
                  const char *fmt, ...)
{
    if (c->faulted)
        return;
    c->faulted = 1;
    sim_fault *f = &c->res->fault;
    f->kind = kind;
    memcpy(f->block, c->bid, sizeof f->block);
    thread_idx(c, t, f->thread);
    if (in) {
        f->ptx_line = in->ptx_line;
        f->src_file = ptx_source_file(c->m, in->src_file);
        f->src_line = in->src_line;
    }
    /* The message says what happened; where (block, thread, lines) is in the fields. */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->message, sizeof f->message, fmt, ap);
    va_end(ap);
}

static const char *space_name(int space)
{
    static const char *n[] = {"generic", "global", "shared", "local", "const", "param"};
    return space >= 0 && space < 6 ? n[space] : "?";
}

static const char *kind_name(int kind)
{
    return kind == 1 ? "store" : kind == 2 ? "atomic" : "load";
}

/* Describes where a bad global address lies relative to the nearest allocation. */
static void describe_global(sim_t *s, uint64_t addr, unsigned size, char *buf, size_t n)
{
    const sim_alloc *best = NULL;
    uint64_t dist = UINT64_MAX;
    int after = 0;
    for (int i = 0; i < s->nallocs; i++) {
        const sim_alloc *a = &s->allocs[i];
        uint64_t end = a->base + a->size;
        if (addr >= a->base && addr < end) { /* straddles the end */
            best = a;
            after = 2;
            break;
        }
        if (addr >= end && addr - end < dist) {
            dist = addr - end;
            best = a;
            after = 1;
        } else if (addr < a->base && a->base - addr < dist) {
            dist = a->base - addr;
            best = a;
            after = 0;
        }
    }
    if (!best || dist > (1u << 20)) {
        snprintf(buf, n, "not inside any allocation%s",
                 addr < 4096 ? " (a null pointer?)" : "");
    } else if (after == 2) {
        snprintf(buf, n, "the last %u bytes lie past the end of '%s' (%zu bytes)",
                 (unsigned)(addr + size - (best->base + best->size)), best->label, best->size);
    } else if (after) {
        snprintf(buf, n, "%llu bytes past the end of '%s' (%zu bytes)",
                 (unsigned long long)dist, best->label, best->size);
    } else {
        snprintf(buf, n, "%llu bytes before the start of '%s' (%zu bytes)",
                 (unsigned long long)dist, best->label, best->size);
    }
}

void *sim_mem(sim_ctx *c, unsigned t, int space, uint64_t addr, unsigned size, int kind,
              const ptx_insn *in)
{
    uint64_t a = addr;
    int sp = space;
    if (sp == SIM_SPACE_GENERIC) {
        if (a >= SIM_SHARED_WIN && a - SIM_SHARED_WIN < SIM_WIN_SIZE) {
            sp = SIM_SPACE_SHARED;
            a -= SIM_SHARED_WIN;
        } else if (a >= SIM_LOCAL_WIN && a - SIM_LOCAL_WIN < SIM_WIN_SIZE) {
            sp = SIM_SPACE_LOCAL;
            a -= SIM_LOCAL_WIN;
        } else {
            sp = SIM_SPACE_GLOBAL;
        }
    }
    if (size > 1 && (addr & (size - 1)) != 0) {
        if (!c->faulted) {
            sim_fault_at(c, t, in, SIM_FAULT_MISALIGNED,
                         "misaligned %s of %u bytes at %s address 0x%llx", kind_name(kind),
                         size, space_name(space), (unsigned long long)addr);
            sim_fault *f = &c->res->fault;
            f->space = (sim_space)sp;
            f->is_store = kind;
            f->address = addr;
            f->size = size;
        }
        return NULL;
    }
    char why[200];
    why[0] = 0;
    switch (sp) {
    case SIM_SPACE_GLOBAL:
    case SIM_SPACE_CONST: {
        sim_alloc *al = find_alloc(c->s, a, size);
        if (al)
            return al->data + (a - al->base);
        describe_global(c->s, a, size, why, sizeof why);
        break;
    }
    case SIM_SPACE_SHARED:
        if (a <= c->shared_size && size <= c->shared_size - a)
            return c->shared + a;
        snprintf(why, sizeof why, "outside the block's %zu bytes of shared memory",
                 c->shared_size);
        break;
    case SIM_SPACE_LOCAL:
        if (a <= c->localcap && size <= c->localcap - a)
            return c->local + (size_t)t * c->localcap + a;
        snprintf(why, sizeof why, "outside the thread's %zu bytes of local memory",
                 c->localcap);
        break;
    case SIM_SPACE_PARAM:
        if (a >= SIM_PARAM_FRAME) {
            uint64_t o = a - SIM_PARAM_FRAME;
            if (o <= c->paramcap && size <= c->paramcap - o)
                return c->params + (size_t)t * c->paramcap + o;
            snprintf(why, sizeof why, "outside the parameter frames");
        } else if (kind != 0) {
            snprintf(why, sizeof why, "kernel parameters are read-only");
        } else if (a <= c->kparam_size && size <= c->kparam_size - a) {
            return c->kparams + a;
        } else {
            snprintf(why, sizeof why, "outside the %zu bytes of kernel parameters",
                     c->kparam_size);
        }
        break;
    default:
        snprintf(why, sizeof why, "unknown state space");
    }
    if (!c->faulted) {
        sim_fault_at(c, t, in, SIM_FAULT_OUT_OF_BOUNDS,
                     "out-of-bounds %s of %u bytes %s %s address 0x%llx: %s", kind_name(kind),
                     size, kind == 0 ? "from" : "to", space_name(sp), (unsigned long long)addr,
                     why);
        sim_fault *f = &c->res->fault;
        f->space = (sim_space)sp;
        f->is_store = kind;
        f->address = addr;
        f->size = size;
    }
    return NULL;
}

/* ------------------------------------------------------------------ launch */

/* Instantiates the module's .global/.const variables in s (once per module). */
static sim_status load_module_vars(sim_t *s, const ptx_module *m)
{
    if (s->mod_id == m->id)
        return SIM_OK;
    uint64_t *va = calloc((size_t)m->nvars + 1, sizeof *va);
    if (!va)
        return SIM_ERR_NOMEM;
    for (int i = 0; i < m->nvars; i++) {
        const ptx_var *v = &m->vars[i];
        sim_status st = alloc_global(s, v->size, v->name, v->align, &va[i]);
        if (st != SIM_OK) {
            free(va);
            return st;
        }
        if (v->init)
            sim_memcpy_htod(s, va[i], v->init, v->size);
    }
    free(s->var_addr);
    s->var_addr = va;
    s->nvars = m->nvars;
    s->mod_id = m->id;
    return SIM_OK;
}

static void ctx_free(sim_ctx *c)
{
    free(c->pc);
    free(c->state);
    free(c->depth);
    free(c->rbase);
    free(c->pbase);
    free(c->lbase);
    free(c->bar_pc);
    free(c->frames);
    free(c->regs);
    free(c->params);
    free(c->local);
    free(c->loop_pc);
    free(c->shared);
    free(c->kparams);
}

static sim_status launch_error(sim_result *res, sim_status st, const char *msg)
{
    snprintf(res->fault.message, sizeof res->fault.message, "%s", msg);
    return st;
}

/* Releases the CTA's waiting threads or reports a deadlock; called when no warp can
 * issue. Returns 1 when threads were released, 0 when the block is finished, -1 on
 * deadlock (fault recorded). */
static int resolve_barrier(sim_ctx *c)
{
    unsigned waiting = 0, exited = 0, first = 0;
    int same = 1, pc0 = -1;
    for (unsigned t = 0; t < c->nthreads; t++) {
        if (c->state[t] == SIM_T_EXIT) {
            exited++;
        } else if (c->state[t] == SIM_T_BAR) {
            if (pc0 < 0) {
                pc0 = c->bar_pc[t];
                first = t;
            } else if (c->bar_pc[t] != pc0) {
                const ptx_insn *a = &c->code[pc0], *b = &c->code[c->bar_pc[t]];
                uint64_t ida = a->nopnd ? a->o[0].imm : 0, idb = b->nopnd ? b->o[0].imm : 0;
                if (c->s->cfg.barrier_strict || ida != idb)
                    same = 0;
            }
            waiting++;
        }
    }
    if (waiting == 0)
        return 0;
    int ok = same && waiting + exited == c->nthreads &&
             (exited == 0 || !c->s->cfg.barrier_strict);
    if (ok) {
        for (unsigned t = 0; t < c->nthreads; t++)
            if (c->state[t] == SIM_T_BAR)
                c->state[t] = SIM_T_RUN;
        return 1;
    }
    /* deadlock: name the barriers threads wait at */
    char lines[300] = "";
    size_t len = 0;
    int listed[8], nlisted = 0;
    for (unsigned t = 0; t < c->nthreads && nlisted < 8; t++) {
        if (c->state[t] != SIM_T_BAR)
            continue;
        int seen = 0;
        for (int i = 0; i < nlisted; i++)
            seen |= listed[i] == c->bar_pc[t];
        if (seen)
            continue;
        listed[nlisted++] = c->bar_pc[t];
        unsigned n = 0;
        for (unsigned u = 0; u < c->nthreads; u++)
            n += c->state[u] == SIM_T_BAR && c->bar_pc[u] == c->bar_pc[t];
        char where[160];
        sim_where(c, &c->code[c->bar_pc[t]], where, sizeof where);
        int k = snprintf(lines + len, sizeof lines - len, "%s%u thread(s) wait at %s",
                         len ? "; " : "", n, where);
        if (k > 0 && (size_t)k < sizeof lines - len)
            len += (size_t)k;
    }
    sim_fault_at(c, first, &c->code[pc0], SIM_FAULT_DEADLOCK,
                 "deadlock: a barrier can never be released: %s; %u thread(s) exited and "
                 "%u are still running elsewhere", lines, exited,
                 c->nthreads - waiting - exited);
    return -1;
}

static int run_block(sim_ctx *c)
{
    const ptx_func *f = c->entry;
    for (unsigned t = 0; t < c->nthreads; t++) {
        c->pc[t] = (uint32_t)f->entry_pc;
        c->state[t] = SIM_T_RUN;
        c->depth[t] = 0;
        c->rbase[t] = c->pbase[t] = c->lbase[t] = 0;
        c->bar_pc[t] = -1;
    }
    for (unsigned w = 0; w < c->nwarps; w++)
        c->loop_pc[w] = -1;
    memset(c->regs, 0, c->nthreads * c->regcap * sizeof *c->regs);
    memset(c->params, 0, c->nthreads * c->paramcap);
    memset(c->local, 0, c->nthreads * c->localcap);
    memset(c->shared, 0, c->shared_size);
    for (;;) {
        int progressed = 0;
        for (unsigned w = 0; w < c->nwarps; w++) {
            progressed |= sim_warp_step(c, w);
            if (c->faulted)
                return -1;
        }
        if (!progressed) {
            int r = resolve_barrier(c);
            if (r <= 0)
                return r;
        }
    }
}

sim_status sim_launch(sim_t *s, const ptx_module_t *m, const char *kernel,
                      const unsigned grid[3], const unsigned block[3],
                      unsigned dynamic_shared, void **params, sim_result *res)
{
    memset(res, 0, sizeof *res);
    const ptx_func *f = NULL;
    for (int i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].is_entry && m->funcs[i].entry_pc >= 0 &&
            strcmp(m->funcs[i].name, kernel) == 0)
            f = &m->funcs[i];
    if (!f) {
        snprintf(res->fault.message, sizeof res->fault.message,
                 "no kernel (.entry) named '%s' in the module", kernel);
        return SIM_ERR_NOT_FOUND;
    }
    const sim_device_model *dm = sim_device();
    for (int i = 0; i < 3; i++) {
        if (grid[i] == 0 || block[i] == 0)
            return launch_error(res, SIM_ERR_LAUNCH, "grid and block dimensions must be >= 1");
        if (block[i] > (unsigned)dm->max_block_dim[i] || grid[i] > dm->max_grid_dim[i]) {
            snprintf(res->fault.message, sizeof res->fault.message,
                     "grid (%u,%u,%u) or block (%u,%u,%u) is over the limits: block "
                     "(%d,%d,%d), grid (%u,%u,%u)", grid[0], grid[1], grid[2], block[0],
                     block[1], block[2], dm->max_block_dim[0], dm->max_block_dim[1],
                     dm->max_block_dim[2], dm->max_grid_dim[0], dm->max_grid_dim[1],
                     dm->max_grid_dim[2]);
            return SIM_ERR_LAUNCH;
        }
    }
    uint64_t nthreads = (uint64_t)block[0] * block[1] * block[2];
    if (nthreads > (uint64_t)dm->max_threads_per_block) {
        snprintf(res->fault.message, sizeof res->fault.message,
                 "a block of %llu threads is over the limit of %d threads per block",
                 (unsigned long long)nthreads, dm->max_threads_per_block);
        return SIM_ERR_LAUNCH;
    }
    size_t shared = (size_t)f->dynshared_off + dynamic_shared;
    if (shared > dm->shared_bytes_per_block) {
        snprintf(res->fault.message, sizeof res->fault.message,
                 "%zu bytes of shared memory per block (%u static + %u dynamic) is over the "
                 "limit of %zu bytes", shared, f->shared_size, dynamic_shared,
                 dm->shared_bytes_per_block);
        return SIM_ERR_LAUNCH;
    }
    sim_status st = load_module_vars(s, m);
    if (st != SIM_OK)
        return launch_error(res, st, "out of memory for module variables");

    sim_ctx cv;
    sim_ctx *c = &cv;
    memset(c, 0, sizeof *c);
    c->s = s;
    c->m = m;
    c->entry = f;
    c->code = m->code;
    c->res = res;
    memcpy(c->grid, grid, sizeof c->grid);
    memcpy(c->block, block, sizeof c->block);
    c->nthreads = (unsigned)nthreads;
    c->nwarps = (c->nthreads + 31) / 32;
    c->regcap = (size_t)m->sum_regs + 1;
    c->paramcap = (size_t)m->sum_frame + 64;
    c->localcap = (size_t)m->sum_local + 16;
    c->shared_size = shared;
    c->dynshared_off = f->dynshared_off;
    c->kparam_size = f->kparam_size;
    c->step_limit = s->cfg.step_limit ? s->cfg.step_limit : (1ull << 32);
    size_t n = c->nthreads;
    c->pc = calloc(n, sizeof *c->pc);
    c->state = calloc(n, 1);
    c->depth = calloc(n, 1);
    c->rbase = calloc(n, sizeof *c->rbase);
    c->pbase = calloc(n, sizeof *c->pbase);
    c->lbase = calloc(n, sizeof *c->lbase);
    c->bar_pc = calloc(n, sizeof *c->bar_pc);
    c->frames = calloc(n * SIM_MAX_DEPTH, sizeof *c->frames);
    c->regs = calloc(n * c->regcap, sizeof *c->regs);
    c->params = calloc(n, c->paramcap);
    c->local = calloc(n, c->localcap);
    c->loop_pc = calloc(c->nwarps, sizeof *c->loop_pc);
    c->shared = calloc(1, shared ? shared : 1);
    c->kparams = calloc(1, c->kparam_size ? c->kparam_size : 1);
    if (!c->pc || !c->state || !c->depth || !c->rbase || !c->pbase || !c->lbase ||
        !c->bar_pc || !c->frames || !c->regs || !c->params || !c->local || !c->loop_pc ||
        !c->shared || !c->kparams) {
        ctx_free(c);
        return launch_error(res, SIM_ERR_NOMEM, "out of memory for the launch");
    }
    for (int i = 0; i < f->nparams; i++) {
        if (!params || !params[i]) {
            ctx_free(c);
            return launch_error(res, SIM_ERR_LAUNCH, "missing kernel parameter value");
        }
        memcpy(c->kparams + f->params[i].offset, params[i], f->params[i].size);
    }
    st = SIM_OK;
    for (unsigned z = 0; z < grid[2] && st == SIM_OK; z++)
        for (unsigned y = 0; y < grid[1] && st == SIM_OK; y++)
            for (unsigned x = 0; x < grid[0] && st == SIM_OK; x++) {
                c->bid[0] = x;
                c->bid[1] = y;
                c->bid[2] = z;
                if (run_block(c) < 0)
                    st = SIM_ERR_FAULT;
            }
    ctx_free(c);
    return st;
}
