/* exec_mem.c — the general tier's memory family, called once per warp instruction from
 * sim_exec_insn's switch: ld/ldu, st, atom/red (PTX ISA §9.7.9, §9.7.13). Every access
 * goes through sim_mem (memcheck, racecheck, initcheck, the trace); a faulting lane ends
 * the instruction for the warp. cp.async and mbarrier are exec_async.c's.
 */
#include <string.h>

#include "sim/exec_lanes.h"

/* PTX ISA §9.7.9.8 ld, §9.7.9.9 ldu. */
void sim_exec_ld(sim_ctx *c, const ptx_insn *in, unsigned w, unsigned base, uint32_t em)
{
    const int tc = PTX_TCLASS(in->type);
    const unsigned sz = PTX_TSIZE(in->type);
    const unsigned n = in->vec;
    const int is_s = tc == PTX_TC_S;
    if ((in->flags & PTX_F_VOLATILE) && w < SIM_ITS_WARPS)
        c->its_syncmem[w] = 1; /* polling memory: see sim_warp_step */
    FOR_LANES
    uint64_t addr = addr_of(c, &in->o[1], R, t);
    const unsigned char *p = sim_mem(c, t, in->space, addr, sz * n, 0, in);
    if (!p)
        return;
    if (in->o[0].kind == PTX_OPK_VEC) {
        for (unsigned i = 0; i < n; i++) {
            uint16_t rg = vec_reg(&in->o[0], i);
            if (rg != PTX_NOREG)
                RG(rg) = load_val(p + i * sz, sz, is_s);
        }
    } else {
        D = load_val(p, sz, is_s);
    }
    END_LANES
}

/* PTX ISA §9.7.9.10 st; st.release releases first. */
void sim_exec_st(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em)
{
    const unsigned sz = PTX_TSIZE(in->type);
    const unsigned n = in->vec;
    if (in->bop == PTX_MEM_RELEASE) /* st.release: a release, then the store */
        sim_grace_release(c);
    FOR_LANES
    uint64_t addr = addr_of(c, &in->o[0], R, t);
    unsigned char *p = sim_mem(c, t, in->space, addr, sz * n, 1, in);
    if (!p)
        return;
    if (in->o[1].kind == PTX_OPK_VEC) {
        for (unsigned i = 0; i < n; i++) {
            uint16_t rg = vec_reg(&in->o[1], i);
            uint64_t v = rg != PTX_NOREG ? RG(rg) : 0;
            memcpy(p + i * sz, &v, sz);
        }
    } else {
        uint64_t v = A(1);
        memcpy(p, &v, sz);
    }
    END_LANES
}

/* PTX ISA §9.7.13.5 atom, §9.7.13.6 red: read-modify-write of each lane's address in
 * lane order (sim_atom_op). */
void sim_exec_atom(sim_ctx *c, const ptx_insn *in, unsigned w, unsigned base, uint32_t em)
{
    const unsigned sz = PTX_TSIZE(in->type);
    const int is_atom = in->op == PTX_OP_atom;
    if (w < SIM_ITS_WARPS)
        c->its_syncmem[w] = 1; /* polling memory: see sim_warp_step */
    const ptx_operand *ao = &in->o[is_atom ? 1 : 0];
    if (in->bop == PTX_MEM_RELEASE) /* atom.release / .acq_rel */
        sim_grace_release(c);
    if (in->vec == 2) { /* atom.exch/.cas.b128 (sm_90): 16 bytes, operands slot pairs */
        FOR_LANES
        unsigned char *p = sim_mem(c, t, in->space, addr_of(c, ao, R, t), 16, 2, in);
        if (!p)
            return;
        uint64_t old[2], b[2], cv[2];
        memcpy(old, p, 16);
        for (unsigned i = 0; i < 2; i++) {
            b[i] = RG(vec_reg(&in->o[2], i));
            cv[i] = in->cmp == PTX_ATOM_CAS ? RG(vec_reg(&in->o[3], i)) : 0;
        }
        const int swap = in->cmp == PTX_ATOM_EXCH || (old[0] == b[0] && old[1] == b[1]);
        if (swap)
            memcpy(p, in->cmp == PTX_ATOM_EXCH ? b : cv, 16);
        c->mwrites += swap;
        for (unsigned i = 0; i < 2; i++)
            if (vec_reg(&in->o[0], i) != PTX_NOREG)
                RG(vec_reg(&in->o[0], i)) = old[i];
        END_LANES
        return;
    }
    FOR_LANES
    uint64_t addr = addr_of(c, ao, R, t);
    unsigned char *p = sim_mem(c, t, in->space, addr, sz, 2, in);
    if (!p)
        return;
    uint64_t old = 0;
    memcpy(&old, p, sz);
    uint64_t b = A(is_atom ? 2 : 1);
    uint64_t cv = is_atom && in->cmp == PTX_ATOM_CAS ? A(3) : 0;
    uint64_t nv = sim_atom_op(in->cmp, (ptx_type)in->type, old, b, cv);
    memcpy(p, &nv, sz);
    c->mwrites += memcmp(&nv, &old, sz) != 0; /* spin detection: memory changed */
    if (is_atom)
        D = old;
    END_LANES
}
