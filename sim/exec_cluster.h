/* exec_cluster.h — private to sim/: thread block clusters (sm_90).
 *
 * The model: sim.c starts the CTAs of a cluster together, in consecutive contexts
 * (sim_ctx.cl_ctx, rank order), and keeps them until every CTA of the cluster has
 * exited, so a CTA's shared memory can be reached by the others for the cluster's whole
 * life (CUDA C++ Programming Guide "Distributed Shared Memory"). Other CTAs' shared
 * memory is addressed through sim_internal.h's cluster window (SIM_DSMEM_SHIFT).
 */
#ifndef GL_EXEC_CLUSTER_H
#define GL_EXEC_CLUSTER_H

#include <stdint.h>

#include "sim/sim_internal.h"

/* Runs barrier.cluster (PTX ISA §9.7.13.2), mapa (§9.7.9.21) and getctarank
 * (§9.7.9.22) for the lanes em of warp w (first thread base) at instruction pc. A lane
 * whose barrier.cluster.wait cannot complete yet stays at pc. Faults are recorded with
 * sim_fault_at. */
void sim_exec_cluster(sim_ctx *c, const ptx_insn *in, unsigned w, unsigned base, uint32_t em,
                      uint32_t pc);

/* Checked access of thread t to shared address a at or above 1 << SIM_DSMEM_SHIFT (the
 * cluster window): the host pointer to `size` bytes of the target CTA's shared memory,
 * after memcheck (the target's bounds, a target that has exited: a fault naming both
 * CTAs), racecheck in the target's shadows and initcheck; NULL after a fault. space and
 * addr are the access as written (for messages); kind: 0 load, 1 store, 2 atomic. */
void *sim_cluster_mem(sim_ctx *c, unsigned t, int space, uint64_t addr, uint64_t a, unsigned size,
                      int kind, const ptx_insn *in);

/* The context and local thread index of racecheck thread id *t of c's cluster: a thread
 * of c's own block, or one named with SIM_CLUSTER_TID (then *t becomes its index in its
 * own CTA). */
const sim_ctx *sim_cluster_thread(const sim_ctx *c, unsigned *t);

#endif
