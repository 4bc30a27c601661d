/* exec_mma.c — executes the tensor-core instructions (PTX ISA §9.7.14) for one warp:
 * gathers each fragment from the 32 lanes' registers into whole matrices (the layouts of
 * mma.c), computes, and scatters the result back; wmma.load/store, ldmatrix and
 * stmatrix go through sim_mem lane by lane, so they are checked (memcheck, racecheck,
 * initcheck) and traced like ld/st. */
#include <string.h>

#include "sim/exec.h"
#include "sim/mma.h"

enum { MAXE = 16 * 256 }; /* elements of the largest matrix (A of m16n8k256) */

/* The register slots of list operand o. */
static const uint16_t *rlist(const sim_ctx *c, const ptx_operand *o)
{
    return c->m->rlist + o->imm;
}

/* Whether lane l takes part in quad-pair qp (0 ... 3; -1: every lane, the other forms). */
static int in_qp(unsigned l, int qp)
{
    return qp < 0 || (int)((l >> 2) & 3) == qp;
}

/* Fills mat (rows x cols, row-major) from the fragments of matrix `which` of the 32 lanes
 * or of quad-pair qp's 8 (in_qp). */
static void gather(const sim_ctx *c, const mma_desc *d, int which, unsigned base,
                   const ptx_operand *o, uint64_t *mat, int cols, int qp)
{
    const unsigned bits = mma_elem_bits(d, which);
    const int nr = mma_nregs(d, which), ep = bits >= 32 ? 1 : (int)(32 / bits);
    const uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    const uint16_t *sl = rlist(c, o);
    for (unsigned l = 0; l < 32; l++)
        for (int r = nr - 1; r >= 0 && in_qp(l, qp); r--) { /* wmma's copies: the first wins */
            const uint64_t v = sl[r] == PTX_NOREG ? 0 : *sim_reg(c, base + l, sl[r]);
            for (int j = 0; j < ep; j++) {
                int row, col;
                mma_frag_pos(d, which, l, r, j, &row, &col);
                mat[row * cols + col] = (v >> (j * bits)) & mask;
            }
        }
}

/* Writes matrix mat (row-major, cols wide) into the fragments of `which` of the lanes of
 * quad-pair qp (in_qp). */
static void scatter(sim_ctx *c, const mma_desc *d, int which, unsigned base, const ptx_operand *o,
                    const uint64_t *mat, int cols, int qp)
{
    const unsigned bits = mma_elem_bits(d, which);
    const int nr = mma_nregs(d, which), ep = bits >= 32 ? 1 : (int)(32 / bits);
    const uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    const uint16_t *sl = rlist(c, o);
    for (unsigned l = 0; l < 32; l++)
        for (int r = 0; r < nr && in_qp(l, qp); r++) {
            uint64_t v = 0;
            for (int j = 0; j < ep; j++) {
                int row, col;
                mma_frag_pos(d, which, l, r, j, &row, &col);
                v |= (mat[row * cols + col] & mask) << (j * bits);
            }
            if (sl[r] != PTX_NOREG)
                *sim_reg(c, base + l, sl[r]) = v;
        }
}

/* Rows and columns of matrix `which`. */
static void dims(const mma_desc *d, int which, int *rows, int *cols)
{
    *rows = which == MMA_B ? d->k : d->m;
    *cols = which == MMA_A ? d->k : d->n;
}

/* The addresses of a warp's wmma.load/store for the trace (trace.h MEM: one request per
 * fragment register, or per element where a register's elements are not adjacent). */
enum { WT_REGS = 16, WT_ELEMS = 4 };
typedef struct wmma_trace {
    uint64_t a[WT_REGS][WT_ELEMS][32]; /* address of element j of register r, per lane, in
                                          its space (a generic one resolved, as sim_mem
                                          gives it to the trace) */
    uint8_t split[WT_REGS];            /* 1: register r's elements are not adjacent */
    uint8_t space;                     /* the space the addresses went to */
} wmma_trace;

/* Records in wt the address sim_mem just gave the trace for lane l (c->mreq_addr). */
static void wt_note(const sim_ctx *c, wmma_trace *wt, int r, int j, unsigned l)
{
    if (wt && r < WT_REGS && j < WT_ELEMS) {
        wt->a[r][j][l] = c->mreq_addr[l];
        wt->space = c->mreq_space;
    }
}

/* Emits the requests wt gathered for `in` (nr registers of ep elements of `bits`). */
static void wmma_trace_emit(sim_ctx *c, const ptx_insn *in, const wmma_trace *wt, unsigned w,
                            int nr, int ep, unsigned bits, int store)
{
    const uint32_t pc = (uint32_t)(in - c->code);
    const int op = store ? TRACE_STORE : TRACE_LOAD;
    for (int r = 0; r < nr && r < WT_REGS; r++) {
        if (!wt->split[r]) {
            sim_trace_mem(c, w, pc, wt->space, op, bits >= 32 ? bits / 8 : 4, UINT32_MAX,
                          wt->a[r][0]);
            continue;
        }
        for (int j = 0; j < ep && j < WT_ELEMS; j++)
            sim_trace_mem(c, w, pc, wt->space, op, bits / 8, UINT32_MAX, wt->a[r][j]);
    }
}

/* wmma.load (store = 0) or wmma.store (store = 1) of matrix `which` (PTX ISA §9.7.14.4.2-3):
 * element (row, col) at base + (row * stride + col) elements (.row) or col * stride + row
 * (.col); stride defaults to the matrix's columns (.row) or rows (.col). Each lane
 * accesses its fragment's elements, a register's elements at once where they are
 * adjacent in memory. Returns 0 after a memory fault. */
static int wmma_mem(sim_ctx *c, const ptx_insn *in, const mma_desc *d, int which, unsigned base,
                    int store, wmma_trace *wt)
{
    const ptx_operand *lo = &in->o[store ? 1 : 0], *ao = &in->o[store ? 0 : 1];
    const unsigned bits = mma_elem_bits(d, which);
    const int nr = mma_nregs(d, which), ep = bits >= 32 ? 1 : (int)(32 / bits);
    const unsigned rbytes = bits >= 32 ? bits / 8 : 4;
    const uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    const uint16_t *sl = rlist(c, lo);
    int rows, cols;
    dims(d, which, &rows, &cols);
    for (unsigned l = 0; l < 32; l++) {
        const unsigned t = base + l;
        uint64_t *R = sim_lane_regs(c, t);
        const uint64_t a0 = ao->imm + (ao->reg != PTX_NOREG ? R[(size_t)ao->reg << 5] : 0) +
                            (ao->sym >= 0 ? sym_addr(c, ao->sym, t) : 0);
        uint64_t stride = (uint64_t)(d->arow ? cols : rows);
        if (in->nopnd > 2)
            stride = in->o[2].kind == PTX_OPK_REG ? (uint32_t)R[(size_t)in->o[2].reg << 5]
                                                  : (uint32_t)in->o[2].imm;
        for (int r = 0; r < nr; r++) {
            uint64_t bitaddr[32];
            int adjacent = 1;
            for (int j = 0; j < ep; j++) {
                int row, col;
                mma_frag_pos(d, which, l, r, j, &row, &col);
                const uint64_t idx = d->arow ? (uint64_t)row * stride + (uint64_t)col
                                             : (uint64_t)col * stride + (uint64_t)row;
                bitaddr[j] = a0 * 8 + idx * bits;
                adjacent &= bitaddr[j] == bitaddr[0] + (uint64_t)j * bits;
            }
            if (wt && r < WT_REGS)
                wt->split[r] |= !(adjacent && bitaddr[0] % 8 == 0);
            uint64_t *reg = sl[r] != PTX_NOREG ? sim_reg(c, t, sl[r]) : NULL;
            uint64_t v = store && reg ? *reg : 0;
            if (adjacent && bitaddr[0] % 8 == 0) {
                unsigned char *p = sim_mem(c, t, in->space, bitaddr[0] / 8, rbytes, store, in);
                if (!p)
                    return 0;
                wt_note(c, wt, r, 0, l);
                if (store) {
                    memcpy(p, &v, rbytes);
                    continue;
                }
                memcpy(&v, p, rbytes);
            } else {
                for (int j = 0; j < ep; j++) {
                    if (bits < 8) { /* sub-byte elements come in adjacent runs only */
                        sim_fault_at(c, t, in, SIM_FAULT_UNSUPPORTED,
                                     "wmma with %u-bit elements in this layout is not "
                                     "implemented (PTX ISA §9.7.14.4.1: A .row, B .col)",
                                     bits);
                        return 0;
                    }
                    unsigned char *p =
                        sim_mem(c, t, in->space, bitaddr[j] / 8, bits / 8, store, in);
                    if (!p)
                        return 0;
                    wt_note(c, wt, r, j, l);
                    uint64_t e = store ? (v >> (j * bits)) & mask : 0;
                    if (store)
                        memcpy(p, &e, bits / 8);
                    else {
                        memcpy(&e, p, bits / 8);
                        v |= (e & mask) << (j * bits);
                    }
                }
                if (store)
                    continue;
            }
            if (reg)
                *reg = v;
        }
    }
    return 1;
}

/* ldmatrix (store = 0, PTX ISA §9.7.14.5.15) or stmatrix (store = 1, §9.7.14.5.16) of
 * num 8x8 matrices of b16: lane mma_ldm_row_lane(i, row) gives the address of matrix i's
 * row (16 bytes); register i of each lane holds the two elements mma_ldm_pos places. */
static int ldst_matrix(sim_ctx *c, const ptx_insn *in, const mma_desc *d, unsigned base, int store)
{
    const ptx_operand *lo = &in->o[store ? 1 : 0], *ao = &in->o[store ? 0 : 1];
    const uint16_t *sl = rlist(c, lo);
    uint16_t mat[4][8][8];
    if (store)
        for (unsigned l = 0; l < 32; l++)
            for (int i = 0; i < d->num; i++) {
                const uint64_t v = sl[i] == PTX_NOREG ? 0 : *sim_reg(c, base + l, sl[i]);
                for (int j = 0; j < 2; j++) {
                    int r, col;
                    mma_ldm_pos(d->trans, l, j, &r, &col);
                    mat[i][r][col] = (uint16_t)(v >> (16 * j));
                }
            }
    for (int i = 0; i < d->num; i++)
        for (int row = 0; row < 8; row++) {
            const unsigned t = base + mma_ldm_row_lane(i, row);
            const uint64_t *R = sim_lane_regs(c, t);
            const uint64_t a = ao->imm + (ao->reg != PTX_NOREG ? R[(size_t)ao->reg << 5] : 0) +
                               (ao->sym >= 0 ? sym_addr(c, ao->sym, t) : 0);
            unsigned char *p = sim_mem(c, t, in->space, a, 16, store, in);
            if (!p)
                return 0;
            if (store)
                memcpy(p, mat[i][row], 16);
            else
                memcpy(mat[i][row], p, 16);
        }
    if (!store)
        for (unsigned l = 0; l < 32; l++)
            for (int i = 0; i < d->num; i++) {
                uint32_t v = 0;
                for (int j = 0; j < 2; j++) {
                    int r, col;
                    mma_ldm_pos(d->trans, l, j, &r, &col);
                    v |= (uint32_t)mat[i][r][col] << (16 * j);
                }
                if (sl[i] != PTX_NOREG)
                    *sim_reg(c, base + l, sl[i]) = v;
            }
    return 1;
}

/* mma.sp (PTX ISA §9.7.14.6) for warp w: the compressed A (M x K/2, the fragments of the
 * dense K/2 shape) is placed by the metadata of the lanes the selector names; each row i
 * of D is then the dense product over K/2 of compressed row i with the K/2 rows of B its
 * fields pick (as the hardware gathers them: one K/2-long accumulation, mma_compute's
 * model of the dense K/2 shape). A metadata field that names one element twice, or
 * picks no tf32 element (0x4, 0xe only), is undefined behaviour (§9.7.14.6.1): a fault. */
static void exec_mma_sp(sim_ctx *c, const ptx_insn *in, const mma_desc *d, unsigned w,
                        unsigned base)
{
    static _Thread_local uint64_t A[16 * 64], B[128 * 8], Bi[64 * 8], C[16 * 8], D[16 * 8],
        Di[16 * 8];
    const mma_desc dd = mma_sp_dense(d);
    const int kc = d->k / 2, ch = mma_sp_chunk(d), tf32 = ch == 2, unit = ch == 8 ? 2 : 1;
    gather(c, &dd, MMA_A, base, &in->o[1], A, kc, -1);
    gather(c, d, MMA_B, base, &in->o[2], B, d->n, -1);
    gather(c, d, MMA_C, base, &in->o[3], C, d->n, -1);
    const uint16_t meta = rlist(c, &in->o[3])[in->o[3].sub];
    if (!mma_sp_selector_runs(d)) {
        char where[200];
        sim_where(c, in, where, sizeof where);
        sim_fault_at(c, base, in, SIM_FAULT_TRAP,
                     "illegal instruction: mma.sp .m%dn%dk%d with sparsity selector %d at %s "
                     "(warp %u): ptxas takes it, but the metadata it names lies outside each "
                     "quad of lanes and the GPU stops (an H200 reports an illegal "
                     "instruction; PTX ISA §9.7.14.6.2 shows selectors 0 and 1 only)",
                     d->m, d->n, d->k, d->sel, where, w);
        return;
    }
    for (int i = 0; i < d->m; i++) {
        for (int q = 0; q < d->k / ch; q++) {
            unsigned lane;
            int bit;
            mma_sp_meta_pos(d, i, q, &lane, &bit);
            const unsigned f = (unsigned)(*sim_reg(c, base + lane, meta) >> bit) & 15;
            const unsigned i0 = f & 3, i1 = f >> 2;
            if (i0 == i1 || (tf32 && f != 0x4 && f != 0xe)) {
                char where[200];
                sim_where(c, in, where, sizeof where);
                sim_fault_at(c, base + lane, in, SIM_FAULT_TRAP,
                             "mma.sp at %s: metadata 0x%x (bits %d-%d of lane %u's register) for "
                             "row %d, elements %d-%d of A, of warp %u is undefined (PTX ISA "
                             "§9.7.14.6.1: %s)",
                             where, f, bit + 3, bit, lane, i, q * ch, q * ch + ch - 1, w,
                             tf32 ? ".tf32 takes 0x4 or 0xe" : "two different indices");
                return;
            }
            /* kept unit u of the chunk (compressed columns q*ch/2 + u*unit ...) comes from
             * row i0 (u = 0) or i1 (u = 1) of the chunk */
            for (int u = 0; u < (tf32 ? 1 : 2); u++)
                for (int e = 0; e < unit; e++) {
                    const int src =
                        tf32 ? q * ch + (int)(i0 >> 1) : q * ch + (int)(u ? i1 : i0) * unit + e;
                    const int p = q * ch / 2 + u * unit + e;
                    for (int j = 0; j < d->n; j++)
                        Bi[p * d->n + j] = B[src * d->n + j];
                }
        }
        mma_compute(&dd, A, Bi, C, Di);
        memcpy(&D[i * d->n], &Di[i * d->n], (size_t)d->n * sizeof D[0]);
    }
    scatter(c, d, MMA_D, base, &in->o[0], D, d->n, -1);
}

void sim_exec_mma(sim_ctx *c, const ptx_insn *in, unsigned w, unsigned base, uint32_t em)
{
    mma_desc d;
    ptx_mma_desc(in, &d);
    if (em != UINT32_MAX) {
        /* .sync.aligned (PTX ISA §9.7.14): every thread of the warp executes the same
         * instruction together; a partial warp or exited lanes leave it undefined */
        char where[200];
        sim_where(c, in, where, sizeof where);
        sim_fault_at(c, base + (unsigned)__builtin_ctz(em), in, SIM_FAULT_DEADLOCK,
                     "%s.sync.aligned at %s executed by lanes 0x%08x of warp %u: .aligned "
                     "needs all 32 lanes of the warp to execute it together (PTX ISA §9.7.14)",
                     d.kind == MMA_K_MMA        ? "mma"
                     : d.kind == MMA_K_WLOAD    ? "wmma.load"
                     : d.kind == MMA_K_WSTORE   ? "wmma.store"
                     : d.kind == MMA_K_WMMA     ? "wmma.mma"
                     : d.kind == MMA_K_LDMATRIX ? "ldmatrix"
                     : d.kind == MMA_K_STMATRIX ? "stmatrix"
                                                : "movmatrix",
                     where, em, w);
        return;
    }
    switch (d.kind) {
    case MMA_K_MMA:
    case MMA_K_WMMA: {
        if (d.sparse) {
            exec_mma_sp(c, in, &d, w, base);
            break;
        }
        static _Thread_local uint64_t A[MAXE], B[MAXE], C[32 * 32], D[32 * 32];
        /* m8n8k4 .f16: four quad-pairs, each its own product (mma_quad_pair) */
        for (int qp = mma_quad_pair(&d) ? 0 : -1; qp < 4; qp = qp < 0 ? 4 : qp + 1) {
            gather(c, &d, MMA_A, base, &in->o[1], A, d.k, qp);
            gather(c, &d, MMA_B, base, &in->o[2], B, d.n, qp);
            gather(c, &d, MMA_C, base, &in->o[3], C, d.n, qp);
            mma_compute(&d, A, B, C, D);
            scatter(c, &d, MMA_D, base, &in->o[0], D, d.n, qp);
        }
        break;
    }
    case MMA_K_WLOAD:
    case MMA_K_WSTORE: {
        const int store = d.kind == MMA_K_WSTORE, which = store ? MMA_D : d.frag;
        static _Thread_local wmma_trace wt;
        wmma_trace *wtp = NULL;
        if (c->trace_mem) {
            memset(wt.split, 0, sizeof wt.split);
            wtp = &wt;
        }
        if (wmma_mem(c, in, &d, which, base, store, wtp) && wtp) {
            /* many addresses per lane: the requests of wt, not the one pending request
             * sim_mem gathered (its last address of each lane) */
            if (c->mreq_in == in)
                c->mreq_in = NULL;
            const unsigned bits = mma_elem_bits(&d, which);
            wmma_trace_emit(c, in, wtp, w, mma_nregs(&d, which), bits >= 32 ? 1 : (int)(32 / bits),
                            bits, store);
        }
        break;
    }
    case MMA_K_LDMATRIX: ldst_matrix(c, in, &d, base, 0); break;
    case MMA_K_STMATRIX: ldst_matrix(c, in, &d, base, 1); break;
    default: { /* movmatrix.trans (PTX ISA §9.7.14.5.17): the 8x8 b16 fragment transposed */
        uint16_t mat[8][8];
        int r, col;
        for (unsigned l = 0; l < 32; l++) {
            const uint64_t v = *sim_reg(c, base + l, in->o[1].reg);
            for (int j = 0; j < 2; j++)
                mma_ldm_pos(0, l, j, &r, &col), mat[r][col] = (uint16_t)(v >> (16 * j));
        }
        for (unsigned l = 0; l < 32; l++) {
            uint32_t v = 0;
            for (int j = 0; j < 2; j++)
                mma_ldm_pos(1, l, j, &r, &col), v |= (uint32_t)mat[r][col] << (16 * j);
            *sim_reg(c, base + l, in->o[0].reg) = v;
        }
        break;
    }
    }
}
