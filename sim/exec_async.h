/* exec_async.h — private to sim/: asynchronous copies (cp.async) and mbarrier objects.
 *
 * The model: a cp.async (PTX ISA §9.7.9.25.3) reads its global source when it issues
 * and lands in shared memory as late as hardware may land it: when the issuing thread
 * waits for it (cp.async.wait_group, cp.async.wait_all, §9.7.9.25.3.3), or, once
 * cp.async.mbarrier.arrive (§9.7.9.25.3.4) made an mbarrier track it, when that
 * mbarrier's current phase completes. Until then its destination bytes are marked in
 * racecheck's shadows (sim_race_async_mark): reading or writing them is an error that
 * names the cp.async, whatever barriers come between. cp.async.bulk (§9.7.9.25.4.1)
 * from global to shared with .mbarrier::complete_tx::bytes is one such copy of `size`
 * bytes that performs complete_tx on its mbarrier at issue and lands when the phase
 * completes; from shared to global (.bulk_group) it is done at issue, one order the
 * PTX ISA allows, so writing its source before cp.async.bulk.wait_group.read is not
 * reported. fence.proxy.async orders generic-proxy writes before async-proxy reads
 * (§9.7.13.4.2): the simulator has one proxy, so it is a no-op. Not simulated:
 * cp.async.bulk.tensor (TMA with tensor maps), .multicast::cluster, cp.reduce.async.bulk
 * and cp.async.bulk.prefetch. An mbarrier (§9.7.13.15) is a 64-bit word in shared memory
 * that the simulator encodes as below; only these functions read or write it.
 */
#ifndef GL_EXEC_ASYNC_H
#define GL_EXEC_ASYNC_H

#include <stdint.h>

#include "sim/sim_internal.h"

/* ---- mbarrier state machine (PTX ISA §9.7.13.15.1-2): pure functions on the object ---- */

/* Most arrivals one phase may expect (PTX ISA §9.7.13.15.1: 2^20 - 1). */
#define SIM_MBAR_MAX_COUNT ((1u << 20) - 1)

/* A fresh object expecting `count` arrivals per phase (1..SIM_MBAR_MAX_COUNT), phase 0,
 * tx-count 0 (mbarrier.init, §9.7.13.15.9). */
uint64_t sim_mbar_init(uint32_t count);
/* `count` arrivals on *obj (mbarrier.arrive, §9.7.13.15.11); drop: arrive_drop, which
 * also lowers the expected count of later phases (§9.7.13.15.12). *state gets the
 * object as it was before (the phase the arrival belongs to). Returns 1 when the
 * arrivals complete the phase (pending arrivals and tx-count both 0), 0 when not, -1
 * when count exceeds the pending arrivals (undefined in the PTX ISA: a fault here). */
int sim_mbar_arrive(uint64_t *obj, uint32_t count, int drop, uint64_t *state);
/* Adds delta bytes to the tx-count (expect_tx: +, complete_tx: -; §9.7.13.15.2,
 * §9.7.13.15.10). Returns 1 when that completes the phase, 0 when not, -1 when the
 * tx-count leaves its range of +-(2^20 - 1). */
int sim_mbar_tx(uint64_t *obj, int64_t delta);
/* Whether the phase that `state` (from an arrive) belongs to has completed
 * (mbarrier.test_wait / try_wait, §9.7.13.15.16). */
int sim_mbar_phase_done(uint64_t obj, uint64_t state);
/* Whether the current or the last phase of parity `parity` has completed, i.e. the
 * current phase's parity differs (test_wait.parity / try_wait.parity). */
int sim_mbar_parity_done(uint64_t obj, unsigned parity);
/* Pending arrivals recorded in a state (mbarrier.pending_count, §9.7.13.15.17). */
uint32_t sim_mbar_pending(uint64_t state);

/* ---- cp.async group bookkeeping (PTX ISA §9.7.9.25.3.2-3): pure functions ---- */

/* One cp.async that has not landed yet. */
typedef struct sim_async_copy {
    uint32_t dst;           /* shared-memory offset of the destination */
    uint16_t tid;           /* issuing thread (linear in the CTA) */
    uint8_t size;           /* cp-size: 4, 8 or 16 bytes */
    uint8_t srcsize;        /* bytes read from the source; the rest is zero-filled */
    int32_t group;          /* the thread's bulk-async group, -1 until committed */
    int32_t pc;             /* the cp.async instruction */
    uint32_t mbar;          /* shared offset + 1 of the mbarrier whose phase lands it
                               (cp.async.mbarrier.arrive), 0 none */
    unsigned char data[16]; /* the source bytes, read at issue */
    uint32_t bulk_size;     /* cp.async.bulk: size bytes (size is 0), else 0 */
    unsigned char *bulk;    /* cp.async.bulk: its source bytes (malloc), read at issue */
} sim_async_copy;

/* The copies of one CTA in flight and each thread's committed groups. */
typedef struct sim_async {
    uint32_t block; /* sim_ctx.block_linear + 1 of the CTA it belongs to; 0 none */
    sim_async_copy *q;
    unsigned n, cap;
    uint32_t groups[SIM_ITS_WARPS * 32]; /* per thread: groups committed so far */
} sim_async;

/* cp.async.commit_group by thread tid: its uncommitted copies form a new group (an
 * empty group when there are none). */
void sim_async_commit(sim_async *a, unsigned tid);
/* Whether copy k must have landed once thread tid waits with cp.async.wait_group n
 * (n < 0: wait_all, every copy of the thread, committed or not). */
int sim_async_due(const sim_async *a, unsigned k, unsigned tid, int n);

/* ---- execution (called by sim_exec.c for cp.async.* and mbarrier.*) ---- */

/* st.async / red.async [a], b, [mbar] (PTX ISA §9.7.9.12, §9.7.13.7) of the lanes em
 * (the warp's first thread base): the store or reduction is done at issue (an order the
 * ISA allows: it completes before the mbarrier's phase can), then complete_tx of its
 * size on the mbarrier. */
void sim_exec_st_async(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em);

/* Runs cp.async / cp.async.commit_group / wait_group / wait_all / mbarrier.arrive and
 * mbarrier.* for the lanes em of warp w (first thread base). Faults (bounds, bad
 * counts) are recorded with sim_fault_at. */
void sim_exec_async(sim_ctx *c, const ptx_insn *in, unsigned w, unsigned base, uint32_t em);
/* Frees the CTA's async-copy state at the end of a launch. */
void sim_async_free(sim_ctx *c);

#endif
