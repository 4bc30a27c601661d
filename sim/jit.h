/* jit.h — private to sim/: the translating tier (sim/jit.c). A launch attaches a
 * module's translated blocks (sim_jit_attach); run_ahead (exec_issue.c) calls them. */
#ifndef GL_SIM_JIT_H
#define GL_SIM_JIT_H

#include "sim/sim_internal.h"

/* A translated block: runs its instructions for all 32 lanes of a converged warp whose
 * registers are the lane-major block R (slot r of lane l at R[r * 32 + l]). */
typedef void (*sim_jit_fn)(uint64_t *R);

/* The translated blocks of one module (owned by the sim, reused by its launches of the
 * module): per PC, the block starting there and its length in instructions (0 none). */
struct sim_jit_table {
    sim_jit_fn *fn; /* ncode entries */
    uint8_t *len;   /* ncode + 1 entries */
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
