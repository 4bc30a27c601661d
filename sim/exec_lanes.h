/* exec_lanes.h — private to the general tier (sim/exec_*.c: exec_insn.c and the family
 * handlers of exec_alu.c, exec_cluster.c, exec_ctrl.c, exec_mem.c and exec_warp.c): the
 * operand macros of its lane loops, as Lua's vmcase.
 * FOR_LANES ... END_LANES runs its body for each lane t of em (the warp's first thread
 * base) with R its register frame; A(i) is operand i's value for that lane, D the
 * destination register. Not for the fast tiers, whose names these would shadow.
 */
#ifndef GL_SIM_EXEC_LANES_H
#define GL_SIM_EXEC_LANES_H

#include "sim/exec.h"

#define FOR_LANES                                                                                  \
    for (uint32_t m_ = em; m_; m_ &= m_ - 1) {                                                     \
        unsigned t = base + (unsigned)__builtin_ctz(m_);                                           \
        uint64_t *R = sim_lane_regs(c, t);                                                         \
        (void)R;
#define END_LANES }
#define A(i) opval(c, &in->o[i], R, t)
#define D RG(in->o[0].reg)
#define ISS (tc == PTX_TC_S)
#define O4 (in->o4kind == PTX_OPK_REG ? RG(in->target) : (uint64_t)(uint32_t)in->target)
#define UNSUP (unsup = 1, 0)

#endif
