/* exec_cluster.c — thread block clusters: barrier.cluster, mapa, getctarank and accesses
 * to other CTAs' shared memory (distributed shared memory). The model is described in
 * exec_cluster.h.
 */
#include "sim/exec_cluster.h"

#include <string.h>

#include "sim/exec_lanes.h"
#include "sim/sim_mem.h"

const sim_ctx *sim_cluster_thread(const sim_ctx *c, unsigned *t)
{
    if (*t < SIM_CLUSTER_TID || !c->cl_ctx)
        return c;
    const sim_ctx *o = &c->cl_ctx[(*t >> 10) & 15];
    *t &= 1023;
    return o;
}

/* ------------------------------------------------------------ barrier.cluster */

/* Whether every thread of the cluster has arrived in the current phase or exited. */
static int cluster_all_arrived(const sim_ctx *c0)
{
    uint32_t exited = 0, total = 0;
    for (unsigned r = 0; r < c0->cl_n; r++) {
        exited += c0->cl_ctx[r].nexited;
        total += c0->cl_ctx[r].nthreads;
    }
    if (c0->clb_arrived + exited < total)
        return 0; /* cheap and necessary; the scan below is exact (an arrival that exited
                     is counted twice above) */
    for (unsigned r = 0; r < c0->cl_n; r++) {
        const sim_ctx *m = &c0->cl_ctx[r];
        for (unsigned u = 0; u < m->nthreads; u++)
            if (m->state[u] != SIM_T_EXIT &&
                !((m->clb_thr[u] & 1) && ((m->clb_thr[u] >> 1) & 1) == c0->clb_phase))
                return 0;
    }
    return 1;
}

/* The phase completes: every CTA of the cluster enters a new racecheck interval (as at
 * __syncthreads()), and for the global-memory race detector each CTA released its
 * earlier accesses and acquires the others' (.release/.acquire are the defaults of
 * barrier.cluster.arrive/.wait, PTX ISA §9.7.13.2; .relaxed arrivals are treated
 * alike: never a false report). */
static void cluster_phase_complete(sim_ctx *c, sim_ctx *c0)
{
    c0->clb_phase ^= 1;
    c0->clb_arrived = 0;
    for (unsigned r = 0; r < c0->cl_n; r++) {
        sim_ctx *m = &c0->cl_ctx[r];
        m->epoch++;
        for (unsigned w = 0; w < m->nwarps; w++)
            m->wsync[w]++;
        if (m->grace) {
            m->grace->rel_count[m->block_linear]++;
            m->grace->rel_time[m->block_linear] = c->steps + 1;
            m->grace->acq_time[m->block_linear] = c->steps + 2;
        }
    }
    c->mwrites++; /* spin detection: the waiters may go on */
}

static void barrier_cluster(sim_ctx *c, const ptx_insn *in, unsigned w, unsigned base, uint32_t em,
                            uint32_t pc)
{
    sim_ctx *c0 = c->cl_ctx;
    for (uint32_t m = em; m; m &= m - 1) {
        const unsigned t = base + (unsigned)__builtin_ctz(m);
        uint8_t *st = &c->clb_thr[t];
        if (in->cmp == PTX_BARC_ARRIVE) {
            if (*st & 1) {
                sim_fault_at(c, t, in, SIM_FAULT_TRAP,
                             "barrier.cluster.arrive twice without a barrier.cluster.wait "
                             "between them (undefined behaviour, PTX ISA §9.7.13.2)");
                return;
            }
            *st = (uint8_t)(1 | c0->clb_phase << 1);
            c0->clb_arrived++;
            continue;
        }
        if (!(*st & 1)) {
            sim_fault_at(c, t, in, SIM_FAULT_TRAP,
                         "barrier.cluster.wait without a barrier.cluster.arrive before it "
                         "(undefined behaviour, PTX ISA §9.7.13.2)");
            return;
        }
        if (((*st >> 1) & 1) == c0->clb_phase && cluster_all_arrived(c0))
            cluster_phase_complete(c, c0);
        if (((*st >> 1) & 1) == c0->clb_phase) {
            c->pc[t] = pc; /* not complete: waits (issued again on the warp's next turn) */
            if (w < SIM_ITS_WARPS)
                c->its_syncmem[w] = 1;
        } else {
            *st = 0;
        }
    }
}

/* ------------------------------------------------------------ mapa, getctarank */

/* Shared-window offset of a .shared::cluster (generic: 0) address, or -1 with a fault
 * when a generic address is not a shared-memory one. */
static int64_t shared_off(sim_ctx *c, unsigned t, const ptx_insn *in, uint64_t a)
{
    if (in->space == SIM_SPACE_SHARED)
        return (int64_t)(a & 0xffffffffu);
    if (a >= SIM_SHARED_WIN && a - SIM_SHARED_WIN < SIM_WIN_SIZE)
        return (int64_t)(a - SIM_SHARED_WIN);
    sim_fault_at(c, t, in, SIM_FAULT_OUT_OF_BOUNDS,
                 "%s of address 0x%llx, which is not a shared-memory address (undefined "
                 "behaviour, PTX ISA §9.7.9.21)",
                 in->op == PTX_OP_mapa ? "mapa" : "getctarank", (unsigned long long)a);
    return -1;
}

static void exec_mapa_getctarank(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em)
{
    FOR_LANES
    const int64_t off = shared_off(c, t, in, A(1));
    if (off < 0)
        return;
    const unsigned r = (unsigned)((uint64_t)off >> SIM_DSMEM_SHIFT);
    if (in->op == PTX_OP_getctarank) {
        D = r ? r - 1 : c->cl_rank;
        continue;
    }
    const uint64_t rank = A(2) & 0xffffffffu;
    if (rank >= c->cl_n) {
        sim_fault_at(c, t, in, SIM_FAULT_OUT_OF_BOUNDS,
                     "mapa to CTA rank %llu: the cluster has %u CTAs (ranks 0..%u)",
                     (unsigned long long)rank, c->cl_n, c->cl_n - 1);
        return;
    }
    const uint64_t d = (rank + 1) << SIM_DSMEM_SHIFT | ((uint64_t)off & SIM_DSMEM_OFF_MASK);
    D = in->space == SIM_SPACE_SHARED ? d : SIM_SHARED_WIN + d;
    END_LANES
}

void sim_exec_cluster(sim_ctx *c, const ptx_insn *in, unsigned w, unsigned base, uint32_t em,
                      uint32_t pc)
{
    if (in->op == PTX_OP_barrier_cluster)
        barrier_cluster(c, in, w, base, em, pc);
    else
        exec_mapa_getctarank(c, in, base, em);
}

/* ------------------------------------------------------------ distributed shared memory */

void *sim_cluster_mem(sim_ctx *c, unsigned t, int space, uint64_t addr, uint64_t a, unsigned size,
                      int kind, const ptx_insn *in)
{
    const uint64_t rank = (a >> SIM_DSMEM_SHIFT) - 1, off = a & SIM_DSMEM_OFF_MASK;
    if (rank >= c->cl_n) {
        sim_fault_at(c, t, in, SIM_FAULT_OUT_OF_BOUNDS,
                     "out-of-bounds %s of %u bytes %s %s address 0x%llx: it names CTA rank %llu "
                     "of the cluster, which has %u CTAs",
                     sim_kind_name(kind), size, kind == 0 ? "from" : "to", sim_space_name(space),
                     (unsigned long long)addr, (unsigned long long)rank, c->cl_n);
        return NULL;
    }
    sim_ctx *tc = &c->cl_ctx[rank];
    if (tc == c) /* the executing CTA's own shared memory */
        return sim_mem(c, t, SIM_SPACE_SHARED, off, size, kind, in);
    if (tc->nexited == tc->nthreads || off > tc->shared_size || size > tc->shared_size - off) {
        sim_fault_at(c, t, in, SIM_FAULT_OUT_OF_BOUNDS,
                     "out-of-bounds %s of %u bytes %s the shared memory of block (%u,%u,%u) "
                     "(cluster rank %llu) at offset 0x%llx: %s",
                     sim_kind_name(kind), size, kind == 0 ? "from" : "to", tc->bid[0], tc->bid[1],
                     tc->bid[2], (unsigned long long)rank, (unsigned long long)off,
                     tc->nexited == tc->nthreads
                         ? "that block has exited, and its shared memory with it (a block "
                           "must not exit while others of its cluster may still access its "
                           "shared memory: end with cluster.sync())"
                         : "outside its shared memory");
        if (c->faulted) {
            sim_fault *f = &c->res->fault;
            f->space = SIM_SPACE_SHARED;
            f->is_store = kind;
            f->address = addr;
            f->size = size;
        }
        return NULL;
    }
    if (c->checks & SIM_CHECK_RACE)
        sim_race_check_remote(tc, SIM_CLUSTER_TID | c->cl_rank << 10 | t, c->wsync[t / 32], off,
                              size, kind, in);
    if (c->checks & SIM_CHECK_INIT) {
        if (kind != 1 && memchr(tc->shared_written + off, 0, size))
            sim_report_uninit(c, t, in, SIM_SPACE_SHARED, a, size,
                              "never stored by the block that owns it");
        if (kind != 0)
            memset(tc->shared_written + off, 1, size);
    }
    if (c->trace_mem)
        mreq_add(c, t, SIM_SPACE_SHARED, a, size, kind, in);
    return tc->shared + off;
}
