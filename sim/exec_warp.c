/* exec_warp.c — the general tier's warp-level family, called once per warp instruction
 * from sim_exec_insn's switch: shfl.sync (PTX ISA §9.7.8.6), vote.sync, match.sync,
 * redux.sync, elect.sync (§9.7.13). sim_warp_step issues these only when every live lane
 * named in membermask is at the instruction; a lane takes part with the lanes executing
 * it (em) that its own membermask names (sim_member_parts).
 */
#include "sim/exec_lanes.h"

/* Each lane's low 32 bits of operand o (an immediate, or a register of the lane-major
 * register block row) into v. */
static inline void operand_lanes(const uint64_t *row, const ptx_operand *o, uint32_t v[32])
{
    if (o->kind == PTX_OPK_IMM)
        for (unsigned lane = 0; lane < 32; lane++)
            v[lane] = (uint32_t)o->imm;
    else
        for (unsigned lane = 0; lane < 32; lane++)
            v[lane] = (uint32_t)row[((size_t)o->reg << 5) + lane];
}

/* shfl.sync: each lane reads a register of the lane its mode names. */
void sim_exec_shfl(sim_ctx *c, const ptx_insn *in, unsigned w, unsigned base, uint32_t em,
                   uint32_t pc)
{
    uint64_t val[32];
    uint32_t src[32];
    uint8_t pv[32];
    uint32_t mask;
    const ptx_operand *const ob = &in->o[2], *const oc = &in->o[3];
    if (em == 0xffffffffu && !c->trace && in->o[1].kind == PTX_OPK_REG &&
        (ob->kind == PTX_OPK_IMM || (ob->kind == PTX_OPK_REG && !ob->sub)) &&
        (oc->kind == PTX_OPK_IMM || (oc->kind == PTX_OPK_REG && !oc->sub)) &&
        member_mask_uniform(c, in, base, em, &mask) && mask == 0xffffffffu && w < SIM_ITS_WARPS &&
        !c->w_called[w]) {
        /* the common form a row at a time: the whole warp, each lane naming it, in the
         * kernel's own frame (its registers one lane-major block: member_mask_uniform
         * checked w); every source lane takes part, so each lane reads lane j's a as
         * the loops below do */
        uint64_t *const row = c->regs + ((size_t)w * c->regcap << 5);
        const uint64_t *const a = row + ((size_t)in->o[1].reg << 5);
        uint32_t bl[32], cl[32]; /* each lane's b and c */
        operand_lanes(row, ob, bl);
        operand_lanes(row, oc, cl);
        int src_lane[32];
#define SHFL_LANES(J, OK)                                                                          \
    for (int lane = 0; lane < 32; lane++) {                                                        \
        const int b = (int)(bl[lane] & 31), clamp = (int)(cl[lane] & 31),                          \
                  seg = (int)((cl[lane] >> 8) & 31);                                               \
        const int maxl = (lane & seg) | (clamp & ~seg), j = (J);                                   \
        const int ok = (OK) && j >= 0 && j <= 31;                                                  \
        src_lane[lane] = ok ? j : lane;                                                            \
        pv[lane] = (uint8_t)ok;                                                                    \
    }
        switch (in->cmp) {
        case PTX_SHFL_UP: SHFL_LANES(lane - b, j >= maxl) break;
        case PTX_SHFL_DOWN: SHFL_LANES(lane + b, j <= maxl) break;
        case PTX_SHFL_BFLY: SHFL_LANES(lane ^ b, j <= maxl) break;
        default: SHFL_LANES((lane & seg) | (b & ~seg), j <= maxl) break;
        }
#undef SHFL_LANES
        for (unsigned lane = 0; lane < 32; lane++)
            val[lane] = (uint32_t)a[src_lane[lane]];
        uint64_t *const d = row + ((size_t)in->o[0].reg << 5);
        memcpy(d, val, sizeof val);
        if (in->o[0].sub == 2 && in->o[0].imm != PTX_NOREG) {
            uint64_t *const p = row + ((size_t)in->o[0].imm << 5);
            for (unsigned lane = 0; lane < 32; lane++)
                p[lane] = pv[lane];
        }
        return;
    }
    uint32_t part[32];
    sim_member_parts(c, in, base, em, part);
    FOR_LANES
    unsigned lane = t - base;
    uint32_t b = (uint32_t)A(2) & 31, cv = (uint32_t)A(3);
    uint32_t clamp = cv & 31, seg = (cv >> 8) & 31;
    int maxl = (int)((lane & seg) | (clamp & ~seg)), minl = (int)(lane & seg), j;
    int ok;
    switch (in->cmp) {
    case PTX_SHFL_UP:
        j = (int)lane - (int)b;
        ok = j >= maxl;
        break;
    case PTX_SHFL_DOWN:
        j = (int)lane + (int)b;
        ok = j <= maxl;
        break;
    case PTX_SHFL_BFLY:
        j = (int)(lane ^ b);
        ok = j <= maxl;
        break;
    default:
        j = minl | (int)(b & ~seg);
        ok = j <= maxl;
        break;
    }
    if (!ok || j < 0 || j > 31)
        j = (int)lane;
    src[lane] = (uint32_t)j;
    pv[lane] = (uint8_t)ok;
    END_LANES
    if (c->trace) /* which lane each lane read, for the TUI's shuffle picture */
        sim_trace_shfl(c, w, pc, em, src, pv);
    FOR_LANES
    unsigned lane = t - base, st = base + src[lane];
    /* the source lane's value of a; a lane outside the warp, not
         * participating, or exited gives an undefined value on the GPU: here
         * the source lane's register as it is */
    if (st < c->nthreads && ((part[lane] >> src[lane]) & 1) && in->o[1].kind == PTX_OPK_REG)
        val[lane] = *sim_reg(c, st, in->o[1].reg);
    else
        val[lane] = A(1);
    END_LANES
    FOR_LANES
    unsigned lane = t - base;
    D = zx(val[lane], 4);
    if (in->o[0].sub == 2 && in->o[0].imm != PTX_NOREG)
        RG(in->o[0].imm) = pv[lane];
    END_LANES
}

/* vote.sync .all/.any/.uni/.ballot over each lane's group. */
void sim_exec_vote(sim_ctx *c, const ptx_insn *in, unsigned w, unsigned base, uint32_t em,
                   uint32_t pc)
{
    uint32_t part[32], pred = 0;
    sim_member_parts(c, in, base, em, part);
    FOR_LANES
    if (A(1) & 1)
        pred |= 1u << (t - base);
    END_LANES
    if (c->trace) { /* who voted what, for the TUI's vote picture */
        sim_trace_vote(c, w, pc, em, pred, in->cmp);
    }
    FOR_LANES
    const uint32_t p = part[t - base], ballot = pred & p;
    switch (in->cmp) {
    case PTX_VOTE_ALL: D = ballot == p; break;
    case PTX_VOTE_ANY: D = ballot != 0; break;
    case PTX_VOTE_UNI: D = ballot == 0 || ballot == p; break;
    default: D = ballot; break;
    }
    END_LANES
}

/* match.sync .any/.all: the lanes of each lane's group holding the same value. */
void sim_exec_match(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em)
{
    const unsigned sz = PTX_TSIZE(in->type);
    uint32_t part[32];
    sim_member_parts(c, in, base, em, part);
    uint64_t val[32];
    FOR_LANES
    val[t - base] = zx(A(1), sz);
    END_LANES
    FOR_LANES
    unsigned lane = t - base;
    if (in->cmp == PTX_MATCH_ALL) {
        int all = 1;
        for (uint32_t pm = part[lane]; pm; pm &= pm - 1)
            all &= val[__builtin_ctz(pm)] == val[lane];
        D = all ? part[lane] : 0;
        if (in->o[0].sub == 2 && in->o[0].imm != PTX_NOREG)
            RG(in->o[0].imm) = (uint64_t)all;
    } else {
        uint32_t r = 0;
        for (uint32_t pm = part[lane]; pm; pm &= pm - 1)
            if (val[__builtin_ctz(pm)] == val[lane])
                r |= 1u << __builtin_ctz(pm);
        D = r;
    }
    END_LANES
}

/* redux.sync .add/.and/.or/.xor/.min/.max over each lane's group, in lane order. */
void sim_exec_redux(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em)
{
    const int tc = PTX_TCLASS(in->type);
    uint32_t part[32], v[32];
    sim_member_parts(c, in, base, em, part);
    FOR_LANES
    v[t - base] = (uint32_t)A(1);
    END_LANES
    FOR_LANES
    /* over the lanes of its group, in lane order */
    uint32_t acc = 0;
    int first = 1;
    for (uint32_t pm = part[t - base]; pm; pm &= pm - 1) {
        const uint32_t x = v[__builtin_ctz(pm)];
        if (first) {
            acc = x;
            first = 0;
            continue;
        }
        switch (in->cmp) {
        case PTX_ATOM_ADD: acc += x; break;
        case PTX_ATOM_AND: acc &= x; break;
        case PTX_ATOM_OR: acc |= x; break;
        case PTX_ATOM_XOR: acc ^= x; break;
        case PTX_ATOM_MIN:
            acc = ISS ? ((int32_t)x < (int32_t)acc ? x : acc) : (x < acc ? x : acc);
            break;
        case PTX_ATOM_MAX:
            acc = ISS ? ((int32_t)x > (int32_t)acc ? x : acc) : (x > acc ? x : acc);
            break;
        default: break;
        }
    }
    D = acc;
    END_LANES
}

/* elect.sync (PTX ISA §9.7.13.12): the lowest lane of each group leads. */
void sim_exec_elect(sim_ctx *c, const ptx_insn *in, unsigned base, uint32_t em)
{
    uint32_t part[32];
    sim_member_parts(c, in, base, em, part);
    FOR_LANES
    const uint32_t leader = part[t - base] ? (uint32_t)__builtin_ctz(part[t - base]) : 0;
    if (in->o[0].reg != PTX_NOREG)
        D = leader;
    if (in->o[0].sub == 2 && in->o[0].imm != PTX_NOREG)
        RG(in->o[0].imm) = leader == t - base;
    END_LANES
}
