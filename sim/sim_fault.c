/* sim_fault.c — faults and findings: where an instruction is (sim_where), the
 * warps' state for deadlock messages, sim_fault_at, names of shared variables and
 * global allocations in messages, and recording a checker's finding (sim_add_finding).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/exec_cluster.h"
#include "sim/sim_mem.h"

/* ------------------------------------------------------------------ faults */

const char *sim_base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

void sim_where(const sim_ctx *c, const ptx_insn *in, char *buf, size_t n)
{
    const char *f = ptx_source_file(c->m, in->src_file);
    if (f && in->src_line > 0)
        snprintf(buf, n, "%s:%d (PTX line %d)", sim_base_name(f), in->src_line, in->ptx_line);
    else
        snprintf(buf, n, "PTX line %d", in->ptx_line);
}

static void thread_idx(const sim_ctx *c, unsigned t, unsigned out[3])
{
    out[0] = t % c->block[0];
    out[1] = (t / c->block[0]) % c->block[1];
    out[2] = t / (c->block[0] * c->block[1]);
}

void sim_warps_state(const sim_ctx *c, char *buf, size_t n)
{
    buf[0] = '\0';
    if (c->nwarps < 2)
        return;
    size_t used =
        (size_t)snprintf(buf, n, "; warps of block (%u,%u,%u):", c->bid[0], c->bid[1], c->bid[2]);
    unsigned named = 0, exited = 0, more = 0;
    for (unsigned w = 0; w < c->nwarps && used < n; w++) {
        const unsigned base = w * 32, nl = c->nthreads - base < 32 ? c->nthreads - base : 32;
        int at_bar = -1, running = -1, live = 0;
        for (unsigned l = 0; l < nl; l++) {
            const unsigned t = base + l;
            if (c->state[t] == SIM_T_EXIT)
                continue;
            live = 1;
            if (c->state[t] == SIM_T_BAR && at_bar < 0)
                at_bar = c->bar_pc[t];
            else if (c->state[t] == SIM_T_RUN && running < 0)
                running = (int)c->pc[t];
        }
        if (!live) {
            exited++;
            continue;
        }
        if (named == 6) {
            more++;
            continue;
        }
        char where[200];
        const int pc = running >= 0 ? (c->loop_pc[w] >= 0 ? c->loop_pc[w] : running) : at_bar;
        sim_where(c, &c->code[pc], where, sizeof where);
        used += (size_t)snprintf(buf + used, n - used, "%s %u %s %s", named ? "," : "", w,
                                 running >= 0 && at_bar >= 0 ? "has lanes at a barrier and loops at"
                                 : running >= 0              ? "loops at"
                                                             : "waits at the barrier at",
                                 where);
        named++;
    }
    if (more && used < n)
        used += (size_t)snprintf(buf + used, n - used, ", %u more", more);
    if (exited && used < n)
        snprintf(buf + used, n - used, "%s %u exited", named || more ? "," : "", exited);
}

void sim_fault_at(sim_ctx *c, unsigned t, const ptx_insn *in, sim_fault_kind kind, const char *fmt,
                  ...)
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

const char *sim_space_name(int space)
{
    static const char *n[] = {"generic", "global", "shared", "local", "const", "param"};
    return space >= 0 && space < 6 ? n[space] : "?";
}

const char *sim_kind_name(int kind)
{
    return kind == 1 ? "store" : kind == 2 ? "atomic" : "load";
}

/* Describes where a bad global address lies relative to the nearest allocation. */
void sim_describe_global(sim_t *s, uint64_t addr, unsigned size, char *buf, size_t n,
                         sim_alloc_near *near)
{
    memset(near, 0, sizeof *near);
    /* the nearest allocation before addr and the nearest after it; an index past the end
     * of a buffer is named from that buffer while it is within the buffer's own length
     * past it (x[i + 100] of a 64-element x), even when the next allocation is nearer */
    const sim_alloc *prev = NULL, *next = NULL;
    uint64_t dprev = UINT64_MAX, dnext = UINT64_MAX;
    for (int i = 0; i < s->nallocs; i++) {
        const sim_alloc *a = &s->allocs[i];
        uint64_t end = a->base + a->size;
        if (addr >= a->base && addr < end) { /* straddles the end */
            snprintf(buf, n, "the last %u bytes lie past the end of '%s' (%zu bytes)",
                     (unsigned)(addr + size - end), a->label, a->size);
            return;
        }
        if (addr >= end && addr - end < dprev) {
            dprev = addr - end;
            prev = a;
        } else if (addr < a->base && a->base - addr < dnext) {
            dnext = a->base - addr;
            next = a;
        }
    }
    const int use_prev = prev && (dprev <= prev->size || dprev <= dnext);
    const uint64_t dist = use_prev ? dprev : dnext;
    const sim_alloc *best = use_prev ? prev : next;
    if (!best || dist > (1u << 20)) {
        snprintf(buf, n, "not inside any allocation%s", addr < 4096 ? " (a null pointer?)" : "");
        return;
    }
    snprintf(near->name, sizeof near->name, "%s", best->label);
    near->bytes = best->size;
    near->distance = dist;
    near->after = use_prev;
    if (use_prev)
        snprintf(buf, n, "%llu bytes past the end of '%s' (%zu bytes)", (unsigned long long)dist,
                 best->label, best->size);
    else
        snprintf(buf, n, "%llu bytes before the start of '%s' (%zu bytes)",
                 (unsigned long long)dist, best->label, best->size);
}

/* ------------------------------------------------------------------ findings */

/* The source name of a .shared variable from its PTX name: NVRTC, nvcc and clang name
 * a block-scope `__shared__ float s[64]` of kernel k as an Itanium C++ ABI local name,
 * _ZZ<k's encoding>E1s (maybe followed by _<n>); other names are as declared. */
static void shared_source_name(const char *ptx, char *buf, size_t n)
{
    if (strncmp(ptx, "_ZZ", 3) == 0)
        for (const char *e = ptx + strlen(ptx) - 1; e > ptx + 3; e--) {
            if (*e != 'E' || e[1] < '1' || e[1] > '9')
                continue;
            char *end;
            const long len = strtol(e + 1, &end, 10);
            const size_t rest = strlen(end);
            if (len > 0 && (size_t)len <= rest && (rest == (size_t)len || end[len] == '_')) {
                snprintf(buf, n, "%.*s", (int)len, end);
                return;
            }
        }
    snprintf(buf, n, "%s", ptx);
}

void sim_shared_name(const sim_ctx *c, uint64_t off, unsigned size, char *buf, size_t n)
{
    buf[0] = '\0';
    const ptx_module *m = c->m;
    const int entry = (int)(c->entry - m->funcs);
    for (int i = 0; i < m->nshvars; i++) {
        const ptx_shvar *v = &m->shvars[i];
        if ((v->func >= 0 && v->func != entry) || !v->name)
            continue;
        const ptx_sym *s = &m->syms[v->sym];
        const uint64_t base = s->kind == PTX_SYM_DYNSHARED ? c->dynshared_off : (uint64_t)s->value;
        const uint64_t end = s->kind == PTX_SYM_DYNSHARED ? c->shared_size : base + v->size;
        if (off < base || off >= end)
            continue;
        char name[64];
        shared_source_name(v->name, name, sizeof name);
        const uint64_t d = off - base;
        if (v->size && v->size == size && d == 0)
            snprintf(buf, n, "%s", name); /* a scalar */
        else if (size && d % size == 0)
            snprintf(buf, n, "%s[%llu]", name, (unsigned long long)(d / size));
        else
            snprintf(buf, n, "%s+%llu", name, (unsigned long long)d);
        return;
    }
}

static void fill_access(const sim_ctx *c, sim_access *a, unsigned t, int32_t pc, int op)
{
    memset(a, 0, sizeof *a);
    a->op = op;
    const sim_ctx *tc = sim_cluster_thread(c, &t);
    memcpy(a->block, tc->bid, sizeof a->block);
    thread_idx(c, t, a->thread);
    if (pc >= 0) {
        const ptx_insn *in = &c->code[pc];
        a->ptx_line = in->ptx_line;
        a->src_file = ptx_source_file(c->m, in->src_file);
        a->src_line = in->src_line;
    }
}

/* Records a finding, or counts it when one of the same kind already names the same
 * lines (and hazard). Returns the new finding to fill in (its message), or NULL when it
 * was merged or dropped. */
sim_finding *sim_add_finding(sim_ctx *c, sim_finding_kind kind, int is_error, sim_space sp,
                             uint64_t addr, unsigned size, sim_hazard hz, unsigned t, int32_t pc,
                             int op, int other_t, int32_t other_pc, int other_op)
{
    sim_result *r = c->res;
    if (is_error)
        r->nerrors++;
    else
        r->nwarnings++;
    int ptx_line = pc >= 0 ? c->code[pc].ptx_line : 0;
    int optx_line = other_pc >= 0 ? c->code[other_pc].ptx_line : 0;
    for (int i = 0; i < r->nfindings; i++) {
        sim_finding *f = &r->findings[i];
        if (f->kind == kind && f->hazard == hz && f->access.ptx_line == ptx_line &&
            f->other.ptx_line == optx_line) {
            f->count++;
            return NULL;
        }
    }
    int max = c->s->cfg.max_findings > 0 ? c->s->cfg.max_findings : SIM_DEFAULT_MAX_FINDINGS;
    if (r->nfindings >= max) {
        r->findings_dropped++;
        return NULL;
    }
    if (!r->findings) {
        r->findings = calloc((size_t)max, sizeof *r->findings);
        if (!r->findings) {
            r->findings_dropped++;
            return NULL;
        }
    }
    sim_finding *f = &r->findings[r->nfindings++];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->is_error = is_error;
    f->space = sp;
    f->address = addr;
    f->size = size;
    f->hazard = hz;
    f->count = 1;
    fill_access(c, &f->access, t, pc, op);
    if (other_t >= 0)
        fill_access(c, &f->other, (unsigned)other_t, other_pc, other_op);
    if (sp == SIM_SPACE_SHARED)
        sim_shared_name(c, addr, size, f->var, sizeof f->var);
    return f;
}

/* "thread (x,y,z) of block (x,y,z)" */
void sim_who(const sim_ctx *c, unsigned t, char *buf, size_t n)
{
    c = sim_cluster_thread(c, &t);
    unsigned th[3];
    thread_idx(c, t, th);
    snprintf(buf, n, "thread (%u,%u,%u) of block (%u,%u,%u)", th[0], th[1], th[2], c->bid[0],
             c->bid[1], c->bid[2]);
}

const char *sim_op_verb(int op, int past)
{
    if (op == 1)
        return past ? "wrote" : "writes";
    if (op == 2)
        return past ? "updated atomically" : "updates atomically";
    return past ? "read" : "reads";
}
