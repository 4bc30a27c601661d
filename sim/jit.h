/* jit.h — private to sim/: the translating tier (sim/jit.c). A launch attaches a
 * module's translated blocks (sim_jit_attach); run_ahead (exec_issue.c) calls them. */
#ifndef GL_SIM_JIT_H
#define GL_SIM_JIT_H

#include "sim/sim_internal.h"

/* A translated block: runs its instructions for all 32 lanes of a converged warp whose
 * registers are the lane-major block R (slot r of lane l at R[r * 32 + l]). */
typedef void (*sim_jit_fn)(uint64_t *R);

/* A translated lockstep region (sim_region_turn): runs the region's instructions for the
 * warps wm of a block (bit w: warp w, whose registers are the lane-major block at
 * R0 + w * wstride), each instruction for every warp before the next, its translated
 * runs inline and every other instruction through insn(ctx, pc) (sim_region_insn);
 * traced: after each translated run, insn(ctx, pc | SIM_REGION_ISSUED) for each of its
 * instructions (their issue events, in order). Returns 1 as soon as insn returns 1 (a
 * fault), else 0. K: per PC, the value a kernel-parameter load, a symbol's address or a
 * uniform special register gives (sim_ctx.rk). */
typedef int (*sim_jit_region_fn)(uint64_t *R0, size_t wstride, uint32_t wm, void *ctx,
                                 int (*insn)(void *ctx, uint32_t pc), int traced,
                                 const uint64_t *K);

/* The translated blocks of one module (owned by the sim, reused by its launches of the
 * module): per PC, the block starting there and its length in instructions (0 none),
 * and the lockstep region starting there (NULL none). */
struct sim_jit_table {
    sim_jit_fn *fn;            /* ncode entries */
    uint8_t *len;              /* ncode + 1 entries */
    sim_jit_region_fn *region; /* ncode entries */
};
typedef struct sim_jit_table sim_jit_table;

/* Decides the tier of launch c (sim_config.tier: interp, jit, or auto above
 * SIM_JIT_AUTO_WARPS warps in the grid) and, for the jit tier, sets c->jit to the
 * module's translated blocks: generated, compiled and loaded the first time (from the
 * cache under sim_config.jit_dir when it holds them). Needs c->fops (sim_fops_build).
 * Leaves c->jit NULL (the interpreter runs everything) when the tier is off or
 * anything fails: no C compiler, no cache folder, a compile error. nwarps_grid: warps
 * in the whole grid. */
void sim_jit_attach(sim_ctx *c, uint64_t nwarps_grid);

/* Frees what sim_jit_attach kept in s (the loaded shared object and its tables). */
void sim_jit_free(sim_t *s);

#endif
