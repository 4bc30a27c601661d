/* analysis.c — metrics from a trace (analysis.h): per instruction while events
 * stream in, then folded into source lines. */
#include "trace/analysis.h"

#include <stdlib.h>
#include <string.h>

#include "trace/dram.h"

/* One atomic address (open-addressing hash; count 0 = empty slot); the same table
 * keys blocks (their global write bytes) and warps (their async-group state's index). */
typedef struct atom_slot {
    uint64_t address;
    uint64_t count;
    int space;
} atom_slot;

/* An open-addressing hash of atom_slots, half full at most. */
typedef struct count_table {
    atom_slot *slots;
    size_t n, cap;
} count_table;

/* Groups a thread keeps track of exactly (older ones merge into the oldest). */
#define ASYNC_GROUPS 8

/* One warp's cp.async groups (PTX ISA §9.7.9.25.3): per lane, the copies of its open
 * group and of its committed groups not yet waited for, oldest first (saturating), and
 * which of those groups (bit i: groups[l][i]) held a copy in flight while the lane read
 * shared memory. */
typedef struct async_warp {
    uint16_t open[32];
    uint16_t groups[32][ASYNC_GROUPS];
    uint8_t ngroups[32];
    uint8_t overlapped[32];
} async_warp;

/* A barrier arrival waiting for its release. */
typedef struct arrival {
    uint32_t block;
    uint16_t barrier;
    int32_t pc;
    uint64_t time;
} arrival;

struct gl_metrics_acc {
    gl_counts *pc; /* per instruction; [npc] gathers unknown PCs */
    int npc;
    count_table atoms;
    count_table block_writes; /* key: block; count: bytes it wrote to global memory */
    count_table warp_async;   /* key: block << 16 | warp; count: index in async + 1 */
    async_warp *async;
    size_t nasync, cap_async;
    arrival *arr;
    size_t narr, cap_arr;
    gl_dram *dram; /* the DRAM model, when gl_metrics.l2_bytes is set */
    int nomem;
};

double gl_warp_execution_efficiency(const gl_counts *c)
{
    return c->inst_executed ? (double)c->thread_inst_executed / (double)c->inst_executed / 32.0
                            : 0.0;
}

double gl_branch_efficiency(const gl_counts *c)
{
    return c->branches ? 1.0 - (double)c->divergent_branches / (double)c->branches : 1.0;
}

double gl_gld_sectors_per_request(const gl_counts *c)
{
    return c->gld_requests ? (double)c->gld_sectors / (double)c->gld_requests : 0.0;
}

double gl_global_sector_efficiency(const gl_counts *c)
{
    uint64_t sectors = c->gld_sectors + c->gst_sectors + c->ldgsts_sectors;
    return sectors ? 100.0 * (double)(c->gld_bytes + c->gst_bytes + c->ldgsts_bytes) /
                         (32.0 * (double)sectors)
                   : 0.0;
}

uint64_t gl_global_sectors(const gl_counts *c)
{
    return c->gld_sectors + c->gst_sectors + c->ldgsts_sectors + c->global_atom_sectors +
           c->global_red_sectors + c->bulk_ld_sectors + c->bulk_st_sectors;
}

uint64_t gl_global_bytes(const gl_counts *c)
{
    return c->gld_bytes + c->gst_bytes + c->ldgsts_bytes + c->bulk_ld_bytes + c->bulk_st_bytes;
}

uint64_t gl_global_load_bytes(const gl_counts *c)
{
    return c->gld_bytes + c->ldgsts_bytes + c->bulk_ld_bytes;
}

double gl_global_sectors_per_request(const gl_counts *c)
{
    const uint64_t req = c->gld_requests + c->gst_requests + c->ldgsts_requests;
    return req ? (double)(c->gld_sectors + c->gst_sectors + c->ldgsts_sectors) / (double)req : 0.0;
}

uint64_t gl_shared_wavefronts(const gl_counts *c)
{
    return c->shld_wavefronts + c->shst_wavefronts + c->ldsm_wavefronts + c->stsm_wavefronts +
           c->ldgsts_wavefronts;
}

uint64_t gl_shared_bank_conflicts(const gl_counts *c)
{
    return c->shld_bank_conflicts + c->shst_bank_conflicts + c->ldsm_bank_conflicts +
           c->stsm_bank_conflicts + c->ldgsts_bank_conflicts;
}

uint64_t gl_flops(const gl_counts *c, int k)
{
    switch (k) {
    case TRACE_FLOP_FP32: return c->flops_fp32;
    case TRACE_FLOP_FP64: return c->flops_fp64;
    case TRACE_FLOP_FP16: return c->flops_fp16;
    case TRACE_FLOP_BF16: return c->flops_bf16;
    case TRACE_FLOP_TENSOR_F16: return c->flops_tensor_f16;
    case TRACE_FLOP_TENSOR_BF16: return c->flops_tensor_bf16;
    case TRACE_FLOP_TENSOR_TF32: return c->flops_tensor_tf32;
    case TRACE_FLOP_TENSOR_F64: return c->flops_tensor_f64;
    case TRACE_FLOP_TENSOR_INT8: return c->flops_tensor_int8;
    case TRACE_FLOP_TENSOR_INT4: return c->flops_tensor_int4;
    case TRACE_FLOP_TENSOR_B1: return c->flops_tensor_b1;
    case TRACE_FLOP_TENSOR_FP8: return c->flops_tensor_fp8;
    default: return 0;
    }
}

/* The counter of FLOPs of kind k in c, NULL for none. */
static uint64_t *flops_counter(gl_counts *c, int k)
{
    switch (k) {
    case TRACE_FLOP_FP32: return &c->flops_fp32;
    case TRACE_FLOP_FP64: return &c->flops_fp64;
    case TRACE_FLOP_FP16: return &c->flops_fp16;
    case TRACE_FLOP_BF16: return &c->flops_bf16;
    case TRACE_FLOP_TENSOR_F16: return &c->flops_tensor_f16;
    case TRACE_FLOP_TENSOR_BF16: return &c->flops_tensor_bf16;
    case TRACE_FLOP_TENSOR_TF32: return &c->flops_tensor_tf32;
    case TRACE_FLOP_TENSOR_F64: return &c->flops_tensor_f64;
    case TRACE_FLOP_TENSOR_INT8: return &c->flops_tensor_int8;
    case TRACE_FLOP_TENSOR_INT4: return &c->flops_tensor_int4;
    case TRACE_FLOP_TENSOR_B1: return &c->flops_tensor_b1;
    case TRACE_FLOP_TENSOR_FP8: return &c->flops_tensor_fp8;
    default: return NULL;
    }
}

double gl_gst_sectors_per_request(const gl_counts *c)
{
    return c->gst_requests ? (double)c->gst_sectors / (double)c->gst_requests : 0.0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

unsigned gl_request_sectors(const uint64_t *addrs, uint32_t mask, unsigned width)
{
    uint64_t sec[64];
    unsigned n = 0;
    if (width == 0)
        width = 1;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint64_t a = addrs[__builtin_ctz(m)];
        for (uint64_t s = a / 32; s <= (a + width - 1) / 32 && n < 64; s++)
            sec[n++] = s;
    }
    qsort(sec, n, sizeof *sec, cmp_u64);
    unsigned distinct = 0;
    for (unsigned i = 0; i < n; i++)
        distinct += i == 0 || sec[i] != sec[i - 1];
    return distinct;
}

unsigned gl_request_wavefronts(const uint64_t *addrs, uint32_t mask, unsigned width,
                               unsigned *groups)
{
    if (width == 0)
        width = 1;
    unsigned per = width <= 4 ? 32 : width >= 128 ? 1 : 128 / width; /* lanes per group */
    unsigned total = 0, ngroups = 0;
    for (unsigned g = 0; g < 32; g += per) {
        uint32_t gm = mask & (per >= 32 ? 0xffffffffu : ((1u << per) - 1) << g);
        if (!gm)
            continue;
        ngroups++;
        uint64_t words[32 * 9]; /* distinct 4-byte words the group touches */
        unsigned n = 0;
        for (uint32_t m = gm; m; m &= m - 1) {
            uint64_t a = addrs[__builtin_ctz(m)];
            for (uint64_t w = a / 4; w <= (a + width - 1) / 4 && n < sizeof words / sizeof *words;
                 w++)
                words[n++] = w;
        }
        qsort(words, n, sizeof *words, cmp_u64);
        unsigned per_bank[32] = {0}, worst = 1;
        for (unsigned i = 0; i < n; i++) {
            if (i > 0 && words[i] == words[i - 1])
                continue; /* the same word: a broadcast */
            unsigned b = (unsigned)(words[i] % 32);
            if (++per_bank[b] > worst)
                worst = per_bank[b];
        }
        total += worst;
    }
    if (groups)
        *groups = ngroups;
    return total;
}

static gl_metrics_acc *acc_get(gl_metrics *m, const trace_t *t)
{
    if (m->acc)
        return m->acc;
    gl_metrics_acc *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->npc = t->ninsns;
    a->pc = calloc((size_t)a->npc + 1, sizeof *a->pc);
    if (!a->pc) {
        free(a);
        return NULL;
    }
    if (m->l2_bytes && !(a->dram = gl_dram_new(m->l2_bytes)))
        a->nomem = 1;
    m->acc = a;
    m->level = t->level;
    snprintf(m->kernel, sizeof m->kernel, "%s", t->kernel);
    return a;
}

/* The slot of (space, key) in t, added with count 0 when new (then the caller sets a
 * count: a slot left at 0 reads as empty); NULL on no memory (a->nomem set). */
static atom_slot *table_slot(gl_metrics_acc *a, count_table *t, int space, uint64_t key)
{
    if ((t->n + 1) * 2 > t->cap) {
        size_t nc = t->cap ? t->cap * 2 : 256;
        atom_slot *ns = calloc(nc, sizeof *ns);
        if (!ns) {
            a->nomem = 1;
            return NULL;
        }
        for (size_t i = 0; i < t->cap; i++) {
            if (!t->slots[i].count)
                continue;
            size_t h = (size_t)((t->slots[i].address * 0x9e3779b97f4a7c15ull) >> 20) & (nc - 1);
            while (ns[h].count)
                h = (h + 1) & (nc - 1);
            ns[h] = t->slots[i];
        }
        free(t->slots);
        t->slots = ns;
        t->cap = nc;
    }
    size_t h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (t->cap - 1);
    while (t->slots[h].count && !(t->slots[h].address == key && t->slots[h].space == space))
        h = (h + 1) & (t->cap - 1);
    if (!t->slots[h].count) {
        t->slots[h].address = key;
        t->slots[h].space = space;
        t->n++;
    }
    return &t->slots[h];
}

/* The slot of (space, key) in t, or NULL when there is none. */
static const atom_slot *table_find(const count_table *t, int space, uint64_t key)
{
    if (!t->n)
        return NULL;
    size_t h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (t->cap - 1);
    for (; t->slots[h].count; h = (h + 1) & (t->cap - 1))
        if (t->slots[h].address == key && t->slots[h].space == space)
            return &t->slots[h];
    return NULL;
}

static void atom_add(gl_metrics_acc *a, int space, uint64_t address)
{
    atom_slot *s = table_slot(a, &a->atoms, space, address);
    if (s)
        s->count++;
}

/* The async-group state of warp `warp` of block `block`, created empty; NULL on no
 * memory. */
static async_warp *async_of(gl_metrics_acc *a, uint32_t block, unsigned warp)
{
    atom_slot *s = table_slot(a, &a->warp_async, 0, (uint64_t)block << 16 | warp);
    if (!s)
        return NULL;
    if (!s->count) {
        if (a->nasync == a->cap_async) {
            size_t nc = a->cap_async ? a->cap_async * 2 : 64;
            async_warp *na = realloc(a->async, nc * sizeof *na);
            if (!na) {
                a->nomem = 1;
                a->warp_async.n--, s->address = 0; /* the slot stays empty */
                return NULL;
            }
            a->async = na;
            a->cap_async = nc;
        }
        memset(&a->async[a->nasync], 0, sizeof *a->async);
        s->count = ++a->nasync;
    }
    return &a->async[s->count - 1];
}

static uint16_t sat_add16(uint16_t x, unsigned y)
{
    return (uint16_t)(x + y > 0xffff ? 0xffff : x + y);
}

/* A cp.async group instruction (trace_insn.async_group) issued by lanes `on` of warp
 * ev->warp: its effect on the lanes' groups. A wait counts in async_waits, and in
 * async_waits_overlapped when some lane's group that lands at it held a copy in flight
 * while that lane read shared memory (async_shared_read). */
static void async_group_event(gl_metrics_acc *a, gl_counts *c, const trace_insn *ti,
                              const trace_event *ev, uint32_t on)
{
    if (!on)
        return;
    async_warp *w = async_of(a, ev->block, ev->warp);
    if (!w)
        return;
    int overlapped = 0;
    for (uint32_t m = on; m; m &= m - 1) {
        const unsigned l = (unsigned)__builtin_ctz(m);
        uint16_t *g = w->groups[l];
        unsigned keep = 0;
        switch (ti->async_group) {
        case TRACE_ASYNC_COPY: w->open[l] = sat_add16(w->open[l], 1); break;
        case TRACE_ASYNC_COMMIT:
            if (w->ngroups[l] == ASYNC_GROUPS) { /* the two oldest merge */
                const unsigned o = w->overlapped[l];
                g[0] = sat_add16(g[0], g[1]);
                memmove(g + 1, g + 2, (ASYNC_GROUPS - 2) * sizeof *g);
                w->overlapped[l] = (uint8_t)(((o >> 1) & ~1u) | ((o | o >> 1) & 1u));
                w->ngroups[l]--;
            }
            w->overlapped[l] &= (uint8_t) ~(1u << w->ngroups[l]);
            g[w->ngroups[l]++] = w->open[l];
            w->open[l] = 0;
            break;
        case TRACE_ASYNC_WAIT:
        case TRACE_ASYNC_WAIT_ALL: {
            if (ti->async_group == TRACE_ASYNC_WAIT)
                keep = ti->async_wait_n < w->ngroups[l] ? ti->async_wait_n : w->ngroups[l];
            else
                w->open[l] = 0;
            const unsigned land = w->ngroups[l] - keep; /* the oldest land */
            overlapped |= (w->overlapped[l] & ((1u << land) - 1)) != 0;
            memmove(g, g + land, keep * sizeof *g);
            w->overlapped[l] = (uint8_t)(w->overlapped[l] >> land);
            w->ngroups[l] = (uint8_t)keep;
            break;
        }
        default: break;
        }
    }
    if (ti->async_group == TRACE_ASYNC_WAIT || ti->async_group == TRACE_ASYNC_WAIT_ALL) {
        c->async_waits++;
        c->async_waits_overlapped += overlapped;
    }
}

/* Lanes `mask` of warp ev->warp read shared memory (computing on data that landed
 * before): their committed groups that hold copies were in flight meanwhile. */
static void async_shared_read(gl_metrics_acc *a, const trace_event *ev)
{
    const atom_slot *s = table_find(&a->warp_async, 0, (uint64_t)ev->block << 16 | ev->warp);
    if (!s)
        return; /* the warp has issued no cp.async */
    async_warp *w = &a->async[s->count - 1];
    for (uint32_t m = ev->mask; m; m &= m - 1) {
        const unsigned l = (unsigned)__builtin_ctz(m);
        for (unsigned i = 0; i < w->ngroups[l]; i++)
            if (w->groups[l][i])
                w->overlapped[l] |= (uint8_t)(1u << i);
    }
}

/* The bytes of a MEM event's active lanes. */
static uint64_t event_bytes(const trace_event *ev)
{
    return (uint64_t)__builtin_popcount(ev->mask) * ev->width;
}

/* A MEM event of cp.async or cp.async.bulk (trace.h: the global read and the shared
 * write of a copy; bulk copies in 512-byte pieces). */
static void copy_event(gl_counts *c, const trace_insn *ti, const trace_event *ev,
                       const uint64_t *addrs)
{
    if (ti->flags & TRACE_INSN_BULK) {
        if (ev->space != TRACE_SPACE_GLOBAL)
            return;
        const unsigned sectors = gl_request_sectors(addrs, ev->mask, ev->width);
        if (ev->op == TRACE_LOAD)
            c->bulk_ld_sectors += sectors, c->bulk_ld_bytes += event_bytes(ev);
        else
            c->bulk_st_sectors += sectors, c->bulk_st_bytes += event_bytes(ev);
        return;
    }
    if (ev->space == TRACE_SPACE_GLOBAL) {
        c->ldgsts_requests++;
        c->ldgsts_sectors += gl_request_sectors(addrs, ev->mask, ev->width);
        c->ldgsts_bytes += event_bytes(ev);
    } else if (ev->space == TRACE_SPACE_SHARED) {
        unsigned groups = 0, wf = gl_request_wavefronts(addrs, ev->mask, ev->width, &groups);
        c->ldgsts_wavefronts += wf;
        c->ldgsts_bank_conflicts += wf - groups;
    }
}

static void mem_event(gl_metrics_acc *a, gl_counts *c, const trace_insn *ti, const trace_event *ev,
                      const uint64_t *addrs)
{
    unsigned lanes = (unsigned)__builtin_popcount(ev->mask);
    if (ev->space == TRACE_SPACE_GLOBAL && ev->op != TRACE_LOAD && event_bytes(ev)) {
        atom_slot *b = table_slot(a, &a->block_writes, 0, ev->block);
        if (b)
            b->count += event_bytes(ev);
    }
    if (ti && ti->cls == TRACE_CLASS_ASYNC_COPY) {
        copy_event(c, ti, ev, addrs);
        return;
    }
    const int red = ti && (ti->flags & TRACE_INSN_REDUCTION);
    if (ev->space == TRACE_SPACE_GLOBAL) {
        if (ev->op == TRACE_LOAD) {
            c->gld_requests++;
            c->gld_sectors += gl_request_sectors(addrs, ev->mask, ev->width);
            c->gld_bytes += (uint64_t)lanes * ev->width;
        } else if (ev->op == TRACE_STORE) {
            c->gst_requests++;
            c->gst_sectors += gl_request_sectors(addrs, ev->mask, ev->width);
            c->gst_bytes += (uint64_t)lanes * ev->width;
        } else {
            const unsigned sectors = gl_request_sectors(addrs, ev->mask, ev->width);
            if (red)
                c->global_red_requests++, c->global_red_sectors += sectors;
            else
                c->global_atom_requests++, c->global_atom_sectors += sectors;
            c->global_atom_threads += lanes;
            for (uint32_t m = ev->mask; m; m &= m - 1)
                atom_add(a, TRACE_SPACE_GLOBAL, addrs[__builtin_ctz(m)]);
        }
    } else if (ev->space == TRACE_SPACE_SHARED) {
        if (ev->op == TRACE_ATOMIC) {
            c->shared_atom_requests++;
            c->shared_atom_threads += lanes;
            for (uint32_t m = ev->mask; m; m &= m - 1)
                atom_add(a, TRACE_SPACE_SHARED, addrs[__builtin_ctz(m)]);
            return;
        }
        if (ev->op == TRACE_LOAD)
            async_shared_read(a, ev);
        unsigned groups = 0, wf = gl_request_wavefronts(addrs, ev->mask, ev->width, &groups);
        const int matrix = ti && (ti->flags & TRACE_INSN_MATRIX);
        if (ev->op == TRACE_LOAD && matrix) {
            c->ldsm_requests++;
            c->ldsm_wavefronts += wf;
            c->ldsm_bank_conflicts += wf - groups;
        } else if (matrix) {
            c->stsm_requests++;
            c->stsm_wavefronts += wf;
            c->stsm_bank_conflicts += wf - groups;
        } else if (ev->op == TRACE_LOAD) {
            c->shld_requests++;
            c->shld_wavefronts += wf;
            c->shld_bank_conflicts += wf - groups;
        } else {
            c->shst_requests++;
            c->shst_wavefronts += wf;
            c->shst_bank_conflicts += wf - groups;
        }
    } else if (ev->space == TRACE_SPACE_LOCAL) {
        if (ev->op == TRACE_LOAD)
            c->local_ld_requests++;
        else
            c->local_st_requests++;
    }
}

/* The arithmetic counters of an issued instruction ti whose guard is true in `on`
 * lanes (analysis.h: the Nsight thread-instruction counters, FLOPs by kind). */
static void arith_counts(gl_counts *c, const trace_insn *ti, unsigned on)
{
    c->additions += (uint64_t)ti->adds * on;
    if (TRACE_TYPE_IS_FLOAT(ti->type))
        c->float_additions += (uint64_t)ti->adds * on;
    if (ti->cls == TRACE_CLASS_ADD) {
        c->thread_adds += on;
        if (TRACE_TYPE_IS_FLOAT(ti->type))
            c->thread_fadds += on;
    } else if (ti->cls == TRACE_CLASS_FMA) {
        c->thread_fmas += on;
    } else if (ti->cls == TRACE_CLASS_TENSOR) {
        c->tensor_insts += on != 0;
    } else if (ti->cls == TRACE_CLASS_SFU) {
        c->thread_sfu += on;
    }
    if (!ti->flop_kind)
        return;
    uint64_t *fl = flops_counter(c, ti->flop_kind);
    if (TRACE_FLOP_IS_TENSOR(ti->flop_kind)) {
        if (fl && on)
            *fl += ti->mma_flops; /* per warp instruction: the whole warp computes it */
        return;
    }
    if (fl)
        *fl += (uint64_t)ti->flops * on;
    const int add = ti->cls == TRACE_CLASS_ADD, mul = ti->cls == TRACE_CLASS_MUL;
    uint64_t *cnt = NULL;
    switch (ti->flop_kind) {
    case TRACE_FLOP_FP32:
        cnt = add ? &c->thread_fadd : mul ? &c->thread_fmul : &c->thread_ffma;
        break;
    case TRACE_FLOP_FP64:
        cnt = add ? &c->thread_dadd : mul ? &c->thread_dmul : &c->thread_dfma;
        break;
    case TRACE_FLOP_FP16:
    case TRACE_FLOP_BF16:
        cnt = add ? &c->thread_hadd : mul ? &c->thread_hmul : &c->thread_hfma;
        break;
    default: break;
    }
    if (cnt)
        *cnt += on;
}

void gl_metrics_sink(void *ctx, const trace_t *t, const trace_event *ev, const uint64_t *addrs)
{
    gl_metrics *m = ctx;
    gl_metrics_acc *a = acc_get(m, t);
    if (!a)
        return;
    int pc = ev->pc >= 0 && ev->pc < a->npc ? ev->pc : a->npc;
    gl_counts *c = &a->pc[pc];
    /* every global request through the DRAM model: ld, st, atom, red, cp.async's read
     * and cp.async.bulk's pieces alike */
    if (a->dram && ev->kind == TRACE_EV_MEM && addrs && ev->space == TRACE_SPACE_GLOBAL)
        gl_dram_access(a->dram, ev->op, addrs, ev->mask, ev->width, &c->dram_read_bytes,
                       &c->dram_write_bytes);
    switch (ev->kind) {
    case TRACE_EV_ISSUE: {
        unsigned on = (unsigned)__builtin_popcount(ev->aux);
        c->inst_executed++;
        c->thread_inst_executed += (unsigned)__builtin_popcount(ev->mask);
        c->thread_inst_pred_on += on;
        if (pc < a->npc) {
            const trace_insn *ti = &t->insns[pc];
            if (ti->cls == TRACE_CLASS_BRANCH) {
                c->branches++;
                c->divergent_branches += ev->aux != 0 && ev->aux != ev->mask;
            } else if (ti->cls == TRACE_CLASS_ASYNC_COPY && (ti->flags & TRACE_INSN_BULK)) {
                c->bulk_copies += on; /* one copy per lane that issued one */
            } else {
                arith_counts(c, ti, on);
            }
            if (ti->async_group)
                async_group_event(a, c, ti, ev, ev->aux);
        }
        break;
    }
    case TRACE_EV_MEM:
        if (addrs)
            mem_event(a, c, pc < a->npc ? &t->insns[pc] : NULL, ev, addrs);
        break;
    case TRACE_EV_BAR_ARRIVE:
        c->barrier_arrivals++;
        if (a->narr == a->cap_arr) {
            size_t nc = a->cap_arr ? a->cap_arr * 2 : 64;
            arrival *na = realloc(a->arr, nc * sizeof *na);
            if (!na) {
                a->nomem = 1;
                break;
            }
            a->arr = na;
            a->cap_arr = nc;
        }
        a->arr[a->narr++] = (arrival){ev->block, ev->barrier, pc, ev->time};
        break;
    case TRACE_EV_BAR_RELEASE:
        c->barrier_releases++;
        for (size_t i = 0; i < a->narr;) {
            arrival *r = &a->arr[i];
            if (r->block == ev->block && r->barrier == ev->barrier) {
                a->pc[r->pc].barrier_wait_time += ev->time >= r->time ? ev->time - r->time : 0;
                *r = a->arr[--a->narr];
            } else {
                i++;
            }
        }
        break;
    default: break;
    }
}

static void counts_add(gl_counts *d, const gl_counts *s)
{
#define GL_ADD(f, key) d->f += s->f;
    GL_COUNTS_LIST(GL_ADD)
#undef GL_ADD
}

static int counts_empty(const gl_counts *c)
{
#define GL_NZ(f, key)                                                                              \
    if (c->f)                                                                                      \
        return 0;
    GL_COUNTS_LIST(GL_NZ)
#undef GL_NZ
    return 1;
}

static int cmp_line(const void *a, const void *b)
{
    const gl_line_counts *x = a, *y = b;
    if (x->src_file != y->src_file)
        return x->src_file < y->src_file ? -1 : 1;
    return (x->src_line > y->src_line) - (x->src_line < y->src_line);
}

static int cmp_atom(const void *a, const void *b)
{
    const atom_slot *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return (x->address > y->address) - (x->address < y->address);
}

static void free_files(gl_metrics *m)
{
    for (int i = 0; i < m->nfiles; i++)
        free(m->files[i]);
    free(m->files);
    m->files = NULL;
    m->nfiles = 0;
}

/* m->files from t's file table. 0, or -1 on no memory. */
static int copy_files(gl_metrics *m, const trace_t *t)
{
    free_files(m);
    if (t->nfiles <= 0)
        return 0;
    m->files = calloc((size_t)t->nfiles, sizeof *m->files);
    if (!m->files)
        return -1;
    m->nfiles = t->nfiles;
    for (int i = 0; i < t->nfiles; i++)
        if (t->files[i] && !(m->files[i] = strdup(t->files[i])))
            return -1;
    return 0;
}

int gl_metrics_finish(gl_metrics *m, const trace_t *t)
{
    gl_metrics_acc *a = acc_get(m, t);
    if (!a)
        return -1;
    memset(&m->total, 0, sizeof m->total);
    free(m->lines);
    m->lines = NULL;
    m->nlines = 0;
    gl_line_counts *lines = calloc((size_t)a->npc + 1, sizeof *lines);
    if (!lines)
        return -1;
    int n = 0;
    for (int pc = 0; pc <= a->npc; pc++) {
        const gl_counts *c = &a->pc[pc];
        if (counts_empty(c))
            continue;
        counts_add(&m->total, c);
        int file = pc < a->npc && pc < t->ninsns ? t->insns[pc].src_file : 0;
        int line = pc < a->npc && pc < t->ninsns ? t->insns[pc].src_line : 0;
        lines[n].src_file = file;
        lines[n].src_line = line;
        lines[n].c = *c;
        n++;
    }
    qsort(lines, (size_t)n, sizeof *lines, cmp_line);
    int k = 0; /* merge instructions of the same line */
    for (int i = 0; i < n; i++) {
        if (k > 0 && lines[k - 1].src_file == lines[i].src_file &&
            lines[k - 1].src_line == lines[i].src_line)
            counts_add(&lines[k - 1].c, &lines[i].c);
        else
            lines[k++] = lines[i];
    }
    m->lines = lines;
    m->nlines = k;
    if (copy_files(m, t) < 0)
        return -1;
    m->ntop_atomics = 0;
    m->natomic_addresses = a->atoms.n;
    m->block_write_max = 0;
    for (size_t i = 0; i < a->block_writes.cap; i++)
        if (a->block_writes.slots[i].count > m->block_write_max)
            m->block_write_max = a->block_writes.slots[i].count;
    if (a->atoms.n) {
        atom_slot *tmp = malloc(a->atoms.n * sizeof *tmp);
        if (!tmp)
            return -1;
        size_t j = 0;
        for (size_t i = 0; i < a->atoms.cap; i++)
            if (a->atoms.slots[i].count)
                tmp[j++] = a->atoms.slots[i];
        qsort(tmp, j, sizeof *tmp, cmp_atom);
        for (size_t i = 0; i < j && i < GL_METRICS_TOP_ATOMICS; i++) {
            m->top_atomics[i].space = tmp[i].space;
            m->top_atomics[i].address = tmp[i].address;
            m->top_atomics[i].count = tmp[i].count;
            m->ntop_atomics++;
        }
        free(tmp);
    }
    if (a->nomem || (a->dram && gl_dram_nomem(a->dram)))
        m->incomplete = 1;
    return 0;
}

int gl_metrics_from_trace(const trace_t *t, gl_metrics *m)
{
    memset(m, 0, sizeof *m);
    if (!acc_get(m, t))
        return -1;
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *ev = &t->events[i];
        gl_metrics_sink(m, t, ev, ev->kind == TRACE_EV_MEM ? trace_event_addrs(t, ev) : NULL);
    }
    int r = gl_metrics_finish(m, t);
    if (t->truncated)
        m->incomplete = 1;
    return r;
}

void gl_metrics_free(gl_metrics *m)
{
    if (!m)
        return;
    if (m->acc) {
        free(m->acc->pc);
        free(m->acc->atoms.slots);
        free(m->acc->block_writes.slots);
        free(m->acc->warp_async.slots);
        free(m->acc->async);
        free(m->acc->arr);
        gl_dram_free(m->acc->dram);
        free(m->acc);
        m->acc = NULL;
    }
    free(m->lines);
    m->lines = NULL;
    m->nlines = 0;
    free_files(m);
}

/* ------------------------------------------------------------------ JSON */

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static void json_counts(FILE *f, const gl_counts *c, const char *indent)
{
    fprintf(f, "{\n");
#define GL_JSON(fl, key) fprintf(f, "%s  \"%s\": %llu,\n", indent, key, (unsigned long long)c->fl);
    GL_COUNTS_LIST(GL_JSON)
#undef GL_JSON
    fprintf(f, "%s  \"smsp__thread_inst_executed_per_inst_executed.ratio\": %.6g,\n", indent,
            gl_warp_execution_efficiency(c) * 32.0);
    fprintf(f, "%s  \"smsp__sass_average_branch_targets_threads_uniform.pct\": %.6g,\n", indent,
            100.0 * gl_branch_efficiency(c));
    fprintf(f,
            "%s  \"l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio\": "
            "%.6g,\n",
            indent, gl_gld_sectors_per_request(c));
    fprintf(f,
            "%s  \"l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio\": "
            "%.6g,\n",
            indent, gl_gst_sectors_per_request(c));
    fprintf(f, "%s  \"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct\": %.6g,\n",
            indent,
            c->gld_sectors ? 100.0 * (double)c->gld_bytes / (32.0 * (double)c->gld_sectors) : 0.0);
    fprintf(f, "%s  \"smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct\": %.6g,\n",
            indent,
            c->gst_sectors ? 100.0 * (double)c->gst_bytes / (32.0 * (double)c->gst_sectors) : 0.0);
    fprintf(f, "%s  \"smsp__sass_average_data_bytes_per_sector_mem_global_op_ldgsts.pct\": %.6g,\n",
            indent,
            c->ldgsts_sectors ? 100.0 * (double)c->ldgsts_bytes / (32.0 * (double)c->ldgsts_sectors)
                              : 0.0);
    fprintf(f, "%s  \"gpulearn__sectors_global.sum\": %llu,\n", indent,
            (unsigned long long)gl_global_sectors(c));
    fprintf(f, "%s  \"warp_execution_efficiency\": %.6g,\n", indent,
            gl_warp_execution_efficiency(c));
    fprintf(f, "%s  \"branch_efficiency\": %.6g\n%s}", indent, gl_branch_efficiency(c), indent);
}

int gl_metrics_write_json(const gl_metrics *m, FILE *f)
{
    static const char *const level_names[] = {"off", "issue", "memory"};
    fprintf(f, "{\n  \"kernel\": ");
    json_str(f, m->kernel);
    fprintf(f, ",\n  \"trace_level\": \"%s\",\n  \"incomplete\": %s,\n",
            m->level >= 0 && m->level <= 2 ? level_names[m->level] : "?",
            m->incomplete ? "true" : "false");
    fprintf(f, "  \"definitions\": {\n"
               "    \"warp_execution_efficiency\": \"average active threads per warp "
               "instruction / 32 (smsp__thread_inst_executed.sum / smsp__inst_executed.sum / "
               "32)\",\n"
               "    \"branch_efficiency\": \"share of warp branches at which every active "
               "lane went the same way (1 - smsp__sass_branch_targets_threads_divergent.sum / "
               "smsp__sass_branch_targets.sum)\",\n"
               "    \"sectors\": \"distinct 32-byte sectors touched by the active lanes of one "
               "warp request\",\n"
               "    \"wavefronts\": \"32 banks of 4 bytes; per group of lanes moving at most 128 "
               "bytes, the most distinct words one bank delivers; a broadcast is not a "
               "conflict; bank conflicts = wavefronts - groups\",\n"
               "    \"gpulearn__barrier_wait_time.sum\": \"sum over warp arrivals of release "
               "time - arrival time, in the back end's clock (simulator: warp instructions "
               "issued)\",\n"
               "    \"gpulearn__sectors_global.sum\": \"32-byte global sectors of every kind of "
               "access (ld, st, cp.async, atom, red, cp.async.bulk), the distinct sectors of each "
               "warp request: L1/L2 traffic, not DRAM bytes\",\n"
               "    \"flops\": \"per lane whose guard is true: fp32 and fp64 add/sub and mul 1, "
               "fma/mad 2 (Nsight Compute's roofline); fp16 and bf16 the same per element of a "
               "packed pair; tensor: 2 x M x N x K per warp mma.sync or wmma.mma (K/2 for the kept "
               "half of mma.sp), by the type of A and B\"\n  },\n");
    fprintf(f, "  \"metrics\": ");
    json_counts(f, &m->total, "  ");
    fprintf(f, ",\n  \"lines\": [");
    for (int i = 0; i < m->nlines; i++) {
        const gl_line_counts *l = &m->lines[i];
        const char *file =
            l->src_file > 0 && l->src_file < m->nfiles ? m->files[l->src_file] : NULL;
        fprintf(f, "%s\n    {\"file\": ", i ? "," : "");
        if (file)
            json_str(f, file);
        else
            fprintf(f, "null");
        fprintf(f, ", \"line\": %d, \"metrics\": ", l->src_line);
        json_counts(f, &l->c, "    ");
        fprintf(f, "}");
    }
    fprintf(f, "%s],\n  \"atomic_addresses\": [", m->nlines ? "\n  " : "");
    for (int i = 0; i < m->ntop_atomics; i++)
        fprintf(f, "%s\n    {\"space\": \"%s\", \"address\": %llu, \"count\": %llu}", i ? "," : "",
                trace_space_name(m->top_atomics[i].space),
                (unsigned long long)m->top_atomics[i].address,
                (unsigned long long)m->top_atomics[i].count);
    fprintf(f, "%s]\n}\n", m->ntop_atomics ? "\n  " : "");
    return ferror(f) ? -1 : 0;
}
