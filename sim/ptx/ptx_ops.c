/* ptx_ops.c — what ptx_ops.def says of each PTX operation, as one table: its name and
 * syntax, its trace class, the operand count the parser checks and the first target and
 * PTX ISA version that have it (PTX ISA §9.7 "Instructions", each instruction's "PTX ISA
 * notes" and "Target ISA notes"); the later forms of some ops (their types, shapes and
 * modifiers), and the feature an instruction of a module is. The parser, the trace's
 * instruction table, the executor's messages, the targets' feature check and gpulearn's
 * PTX instrumentation all read it; nothing else lists op names. */
#include "sim/mma.h"
#include "sim/ptx/ptx.h"

#include <string.h>

const ptx_op_info ptx_op_table[PTX_OP_COUNT] = {
#define BIN(n, cls, sm, ptx, i, f, d) {#n, #n, TRACE_CLASS_##cls, 3, sm, ptx},
#define UN(n, cls, sm, ptx, i, f, d) {#n, #n, TRACE_CLASS_##cls, 2, sm, ptx},
#define OP(n, cls, k, sm, ptx, syntax) {#n, syntax, TRACE_CLASS_##cls, k, sm, ptx},
#include "sim/ptx/ptx_ops.def"
#undef BIN
#undef UN
#undef OP
};

int ptx_op_lookup(const char *name, size_t len)
{
    for (int i = 0; i < PTX_OP_COUNT; i++)
        if (strlen(ptx_op_table[i].name) == len && memcmp(ptx_op_table[i].name, name, len) == 0)
            return i;
    return -1;
}

const char *ptx_insn_mnemonic(const ptx_module *m, const ptx_insn *in)
{
    if (in->mnem && in->mnem < m->nmnems && m->mnems[in->mnem])
        return m->mnems[in->mnem];
    return in->op < PTX_OP_COUNT ? ptx_op_table[in->op].syntax : "?";
}

/* ------------------------------------------------------------------ features */

/* Every op's oldest form (ptx_ops.def), then the later forms, each from the "PTX ISA
 * notes" (first_ptx) and "Target ISA notes" (first_sm) of its instruction's section in
 * the PTX ISA (checked against version 9.1). */
enum {
    F_MMA_M16N8K8_F16 = PTX_OP_COUNT, /* §9.7.14.5.14 mma: .f16 m16n8k8 */
    F_MMA_M16N8K16_F16,               /* .f16 m16n8k16 */
    F_MMA_INT_M8N8,                   /* .s8/.u8 m8n8k16, .s4/.u4 m8n8k32, .b1 m8n8k128 */
    F_MMA_INT_M16N8,                  /* the m16n8 shapes of .s8/.u8, .s4/.u4, .b1 */
    F_MMA_B1_AND,                     /* single-bit mma with .and */
    F_MMA_BF16,                       /* .bf16 m16n8k8, m16n8k16 */
    F_MMA_TF32,                       /* .tf32 m16n8k4, m16n8k8 */
    F_MMA_F64_M8N8K4,                 /* .f64 m8n8k4 */
    F_MMA_F64_M16N8,                  /* .f64 m16n8k4, m16n8k8, m16n8k16 */
    F_MMA_FP8,                        /* .e4m3 / .e5m2 */
    F_MMA_SP,                         /* §9.7.14.6 mma.sp (.f16 .bf16 .tf32 .s8/.u8 .s4/.u4) */
    F_MMA_SP_ORDERED,                 /* mma.sp::ordered_metadata */
    F_WMMA_INT8,                      /* §9.7.14.4 wmma: integer (.s8/.u8) */
    F_WMMA_SUBBYTE,                   /* sub-byte and single-bit (.s4/.u4/.b1) */
    F_WMMA_SM80,                      /* double and alternate precision, .m16n16k8 */
    F_HALF_ARITH,                     /* §9.7.4 add/sub/mul/fma .f16, .f16x2 */
    F_HALF_NEG,                       /* neg .f16 */
    F_HALF_ABS,                       /* abs .f16 */
    F_HALF_SFU,                       /* ex2.approx .f16 (tanh's own form is sm_75) */
    F_HALF_MINMAX,                    /* min/max .f16 and .NaN, fma.relu .f16 */
    F_BF16_FMA,                       /* fma/min/max/neg/abs .bf16, .bf16x2 */
    F_BF16_ADD,                       /* add/sub/mul/setp/set/tanh/ex2 .bf16, .bf16x2 */
    F_INT16X2,                        /* §9.7.1 add/min/max .u16x2/.s16x2, min/max.relu */
    F_CVT_SM80,                       /* §9.7.9.21 cvt: .relu, to .f16x2/.bf16/.bf16x2/.tf32 */
    F_CVT_F32_BF16,                   /* cvt.f32.bf16 */
    F_CVT_BF16_SM90,                  /* cvt between .bf16 and other types, cvt.tf32.f32.rn/rz */
    F_CVT_FP8,                        /* cvt with .e4m3x2/.e5m2x2 (PTX ISA 8.1 for sm_89) */
    F_ATOM_F16X2,                     /* §9.7.13.5 atom/red .add.noftz.f16x2 */
    F_ATOM_F16,                       /* atom/red .add.noftz.f16 */
    F_ATOM_BF16,                      /* atom/red .add.noftz.bf16, .bf16x2 */
    F_ATOM_F64_ADD,                   /* atom/red .add.f64 */
    F_CLUSTER_SCOPE,                  /* the .cluster scope qualifier */
    F_CP_BULK,                        /* §9.7.9.25.4 cp.async.bulk and its groups */
    F_MBAR_TRY_WAIT,                  /* §9.7.13.15.16 mbarrier.try_wait */
    F_MBAR_TX,                        /* mbarrier.expect_tx, complete_tx, .expect_tx */
    F_FENCE_PROXY_ASYNC,              /* §9.7.13.4 fence.proxy.async */
    F_CLUSTER_SREG,                   /* §10 %clusterid ... %is_explicit_cluster */
    F_XORSIGN_ABS,                    /* §9.7.3.11-12, §9.7.4.7-8 min/max .xorsign.abs */
    F_ATOM_B128,                      /* §9.7.13.5 atom.exch/.cas .b128 */
    /* instructions the simulator does not run, named in compilers' messages */
    F_WGMMA,          /* §9.7.15 wgmma.mma_async (sm_90a) */
    F_SETMAXNREG,     /* §9.7.19.5 setmaxnreg (sm_90a) */
    F_CP_REDUCE_BULK, /* cp.reduce.async.bulk */
    F_COUNT
};

#define LATER(f) [(f)-PTX_OP_COUNT]
static const ptx_feature later[F_COUNT - PTX_OP_COUNT] = {
    LATER(F_MMA_M16N8K8_F16) = {"mma.m16n8k8 with .f16", 75, 65},
    LATER(F_MMA_M16N8K16_F16) = {"mma.m16n8k16 with .f16", 80, 70},
    LATER(F_MMA_INT_M8N8) = {"integer mma (m8n8)", 75, 65},
    LATER(F_MMA_INT_M16N8) = {"integer mma (m16n8)", 80, 70},
    LATER(F_MMA_B1_AND) = {"mma .b1 with .and", 80, 71},
    LATER(F_MMA_BF16) = {"mma with .bf16", 80, 70},
    LATER(F_MMA_TF32) = {"mma with .tf32", 80, 70},
    LATER(F_MMA_F64_M8N8K4) = {"mma.m8n8k4 with .f64", 80, 70},
    LATER(F_MMA_F64_M16N8) = {"mma.m16n8 with .f64", 90, 78},
    LATER(F_MMA_FP8) = {"mma with .e4m3/.e5m2", 89, 84},
    LATER(F_MMA_SP) = {"mma.sp", 80, 71},
    LATER(F_MMA_SP_ORDERED) = {"mma.sp::ordered_metadata", 80, 85},
    LATER(F_WMMA_INT8) = {"wmma with .s8/.u8", 72, 63},
    LATER(F_WMMA_SUBBYTE) = {"wmma with .s4/.u4/.b1", 75, 63},
    LATER(F_WMMA_SM80) = {"wmma with .bf16/.tf32/.f64 or .m16n16k8", 80, 70},
    LATER(F_HALF_ARITH) = {"add/sub/mul/fma .f16", 53, 42},
    LATER(F_HALF_NEG) = {"neg .f16", 53, 60},
    LATER(F_HALF_ABS) = {"abs .f16", 53, 65},
    LATER(F_HALF_SFU) = {"ex2.approx .f16", 75, 70},
    LATER(F_HALF_MINMAX) = {"min/max .f16 or .NaN, fma.relu", 80, 70},
    LATER(F_BF16_FMA) = {"fma/min/max/neg/abs .bf16", 80, 70},
    LATER(F_BF16_ADD) = {"add/sub/mul/setp/tanh/ex2 .bf16", 90, 78},
    LATER(F_INT16X2) = {"add/min/max .u16x2/.s16x2, integer min/max.relu", 90, 80},
    LATER(F_CVT_SM80) = {"cvt .relu or to .f16x2/.bf16/.bf16x2/.tf32", 80, 70},
    LATER(F_CVT_F32_BF16) = {"cvt.f32.bf16", 80, 71},
    LATER(F_CVT_BF16_SM90) = {"cvt between .bf16 and integers/.f16/.f64", 90, 78},
    LATER(F_CVT_FP8) = {"cvt with .e4m3x2/.e5m2x2", 89, 78},
    LATER(F_ATOM_F16X2) = {"atom/red .f16x2", 60, 62},
    LATER(F_ATOM_F16) = {"atom/red .f16", 70, 63},
    LATER(F_ATOM_BF16) = {"atom/red .bf16", 90, 78},
    LATER(F_ATOM_F64_ADD) = {"atom.add.f64", 60, 50},
    LATER(F_CLUSTER_SCOPE) = {"the .cluster scope", 90, 78},
    LATER(F_CP_BULK) = {"cp.async.bulk", 90, 80},
    LATER(F_MBAR_TRY_WAIT) = {"mbarrier.try_wait", 90, 78},
    LATER(F_MBAR_TX) = {"mbarrier.expect_tx", 90, 80},
    LATER(F_FENCE_PROXY_ASYNC) = {"fence.proxy.async", 90, 80},
    LATER(F_CLUSTER_SREG) = {"%cluster", 90, 78},
    LATER(F_XORSIGN_ABS) = {"min/max .xorsign.abs", 86, 72},
    LATER(F_ATOM_B128) = {"atom .b128", 90, 83},
    LATER(F_WGMMA) = {"wgmma", 90, 80},
    LATER(F_SETMAXNREG) = {"setmaxnreg", 90, 80},
    LATER(F_CP_REDUCE_BULK) = {"cp.reduce.async.bulk", 90, 80},
};
#undef LATER

/* The ops' own forms (ptx_ops.def). */
static const ptx_feature op_forms[PTX_OP_COUNT] = {
#define BIN(n, cls, sm, ptx, i, f, d) {#n, sm, ptx},
#define UN(n, cls, sm, ptx, i, f, d) {#n, sm, ptx},
#define OP(n, cls, k, sm, ptx, syntax) {syntax, sm, ptx},
#include "sim/ptx/ptx_ops.def"
#undef BIN
#undef UN
#undef OP
};

int ptx_feature_count(void)
{
    return F_COUNT;
}

const ptx_feature *ptx_feature_at(int i)
{
    if (i < 0 || i >= F_COUNT)
        return NULL;
    return i < PTX_OP_COUNT ? &op_forms[i] : &later[i - PTX_OP_COUNT];
}

/* Whether modifier mod (".bulk") is one of the dot-separated parts of mnemonic mn. */
static int has_mod(const char *mn, const char *mod)
{
    const size_t n = strlen(mod);
    for (const char *p = mn; (p = strstr(p, mod)); p++)
        if (p[n] == '\0' || p[n] == '.')
            return 1;
    return 0;
}

static int is_bf16(int t)
{
    return t == PTX_T_BF16 || t == PTX_T_BF16X2;
}

static int is_f16(int t)
{
    return t == PTX_T_F16 || t == PTX_T_F16X2;
}

/* The later form of tensor-core instruction in (desc d), or -1. */
static int mma_form(const mma_desc *d)
{
    const int at = d->atype;
    const int is_int8 = at == MMA_T_S8 || at == MMA_T_U8;
    const int is_int = is_int8 || at == MMA_T_S4 || at == MMA_T_U4 || at == MMA_T_B1;
    if (d->kind == MMA_K_MMA) {
        if (at == MMA_T_E4M3 || at == MMA_T_E5M2)
            return F_MMA_FP8; /* sparse too: sm_89, PTX ISA 8.4 */
        if (d->sparse)
            return d->sparse == 2 ? F_MMA_SP_ORDERED : F_MMA_SP;
        if (at == MMA_T_F64)
            return d->m == 8 ? F_MMA_F64_M8N8K4 : F_MMA_F64_M16N8;
        if (at == MMA_T_BF16)
            return F_MMA_BF16;
        if (at == MMA_T_TF32)
            return F_MMA_TF32;
        if (at == MMA_T_B1 && d->bop_and)
            return F_MMA_B1_AND;
        if (is_int)
            return d->m == 8 ? F_MMA_INT_M8N8 : F_MMA_INT_M16N8;
        if (d->m == 16 && d->k == 8)
            return F_MMA_M16N8K8_F16;
        if (d->m == 16 && d->k == 16)
            return F_MMA_M16N8K16_F16;
        return -1; /* m8n8k4 .f16: the op's own form */
    }
    if (d->kind == MMA_K_WLOAD || d->kind == MMA_K_WSTORE || d->kind == MMA_K_WMMA) {
        const int t[3] = {d->atype, d->btype, d->ctype};
        int f = -1;
        for (int i = 0; i < 3; i++) {
            if (t[i] == MMA_T_BF16 || t[i] == MMA_T_TF32 || t[i] == MMA_T_F64)
                return F_WMMA_SM80;
            if (t[i] == MMA_T_S4 || t[i] == MMA_T_U4 || t[i] == MMA_T_B1)
                f = F_WMMA_SUBBYTE;
            else if ((t[i] == MMA_T_S8 || t[i] == MMA_T_U8) && f < 0)
                f = F_WMMA_INT8;
        }
        if (d->m == 16 && d->n == 16 && d->k == 8)
            return F_WMMA_SM80;
        return f;
    }
    return -1;
}

/* The later form of in, or -1 for the op's own. */
static int later_form(const ptx_module *m, const ptx_insn *in)
{
    const char *mn = ptx_insn_mnemonic(m, in);
    const int t = in->type, t2 = in->type2;
    const int int16x2 = t == PTX_T_U16X2 || t == PTX_T_S16X2;
    const int is_int = PTX_TCLASS(t) == PTX_TC_U || PTX_TCLASS(t) == PTX_TC_S;
    switch (in->op) {
    case PTX_OP_mma:
    case PTX_OP_wmma_load:
    case PTX_OP_wmma_store:
    case PTX_OP_wmma_mma: {
        mma_desc d;
        return ptx_mma_desc(in, &d) ? mma_form(&d) : -1;
    }
    case PTX_OP_add:
    case PTX_OP_sub:
    case PTX_OP_mul:
        if (is_bf16(t))
            return F_BF16_ADD;
        if (int16x2)
            return F_INT16X2;
        return is_f16(t) ? F_HALF_ARITH : -1;
    case PTX_OP_setp:
    case PTX_OP_set: return is_bf16(t2) ? F_BF16_ADD : -1; /* §9.7.7 half comparisons */
    case PTX_OP_tanh:
    case PTX_OP_ex2:
        if (is_bf16(t))
            return F_BF16_ADD;
        return is_f16(t) ? F_HALF_SFU : -1;
    case PTX_OP_min:
    case PTX_OP_max:
        if (in->bop & PTX_XORSIGN_ABS)
            return F_XORSIGN_ABS;
        if (int16x2 || (is_int && (in->bop & PTX_RELU)))
            return F_INT16X2;
        if (is_bf16(t))
            return F_BF16_FMA;
        return is_f16(t) || (in->flags & PTX_F_NAN) ? F_HALF_MINMAX : -1;
    case PTX_OP_fma:
        if (is_bf16(t))
            return F_BF16_FMA;
        if (in->bop & PTX_RELU)
            return F_HALF_MINMAX;
        return is_f16(t) ? F_HALF_ARITH : -1;
    case PTX_OP_neg:
    case PTX_OP_abs:
        if (is_bf16(t))
            return F_BF16_FMA;
        if (is_f16(t))
            return in->op == PTX_OP_neg ? F_HALF_NEG : F_HALF_ABS;
        return -1;
    case PTX_OP_cvt:
        if (has_mod(mn, ".e4m3x2") || has_mod(mn, ".e5m2x2"))
            return F_CVT_FP8;
        if ((is_bf16(t) && t2 != PTX_T_F32) || (is_bf16(t2) && t != PTX_T_F32) ||
            (has_mod(mn, ".tf32") && (in->rnd == PTX_RND_RN || in->rnd == PTX_RND_RZ)))
            return F_CVT_BF16_SM90;
        if (is_bf16(t2))
            return F_CVT_F32_BF16;
        return is_bf16(t) || t == PTX_T_F16X2 || has_mod(mn, ".tf32") || (in->bop & PTX_RELU)
                   ? F_CVT_SM80
                   : -1;
    case PTX_OP_atom:
    case PTX_OP_red:
        if (in->vec == 2)
            return F_ATOM_B128; /* .b128, decoded as .v2.b64 */
        if (is_bf16(t))
            return F_ATOM_BF16;
        if (t == PTX_T_F16X2)
            return F_ATOM_F16X2;
        if (t == PTX_T_F16)
            return F_ATOM_F16;
        if (has_mod(mn, ".cluster"))
            return F_CLUSTER_SCOPE;
        return t == PTX_T_F64 && in->cmp == PTX_ATOM_ADD ? F_ATOM_F64_ADD : -1;
    case PTX_OP_cp: return (in->bop & PTX_CPA_BULK) ? F_CP_BULK : -1;
    case PTX_OP_mbarrier:
        if (in->cmp == PTX_MBAR_TRY_WAIT)
            return F_MBAR_TRY_WAIT;
        return in->cmp == PTX_MBAR_EXPECT_TX || in->cmp == PTX_MBAR_COMPLETE_TX ||
                       (in->bop & PTX_MBAR_TX)
                   ? F_MBAR_TX
                   : -1;
    case PTX_OP_fence:
        if (has_mod(mn, ".proxy") && has_mod(mn, ".async"))
            return F_FENCE_PROXY_ASYNC;
        return has_mod(mn, ".cluster") ? F_CLUSTER_SCOPE : -1;
    case PTX_OP_ld:
    case PTX_OP_st:
    case PTX_OP_membar: return has_mod(mn, ".cluster") ? F_CLUSTER_SCOPE : -1;
    default: return -1;
    }
}

/* Whether in reads a %cluster... special register (PTX ISA §10: %clusterid through
 * %is_explicit_cluster, sm_90). */
static int reads_cluster_sreg(const ptx_insn *in)
{
    for (int i = 0; i < in->nopnd && i < 4; i++)
        if (in->o[i].kind == PTX_OPK_SREG && in->o[i].sub >= PTX_SREG_CLUSTERID_X &&
            in->o[i].sub <= PTX_SREG_IS_EXPLICIT_CLUSTER)
            return 1;
    return 0;
}

const ptx_feature *ptx_insn_feature(const ptx_module *m, const ptx_insn *in)
{
    const ptx_feature *f = ptx_feature_at(in->op < PTX_OP_COUNT ? in->op : PTX_OP_mov);
    const int k = later_form(m, in);
    const ptx_feature *g = k >= 0 ? ptx_feature_at(k) : NULL;
    if (g &&
        (g->first_sm > f->first_sm || (g->first_sm == f->first_sm && g->first_ptx > f->first_ptx)))
        f = g;
    if (reads_cluster_sreg(in) && ptx_feature_at(F_CLUSTER_SREG)->first_sm > f->first_sm)
        f = ptx_feature_at(F_CLUSTER_SREG);
    return f;
}

int ptx_module_newer_feature(const ptx_module_t *m, int target_sm, ptx_feature_use *use)
{
    const ptx_insn *first = NULL;
    const ptx_feature *ff = NULL;
    for (int pc = 0; pc < m->ncode; pc++) {
        const ptx_insn *in = &m->code[pc];
        const ptx_feature *f = ptx_insn_feature(m, in);
        if (f->first_sm > target_sm && (!first || in->ptx_line < first->ptx_line))
            first = in, ff = f;
    }
    if (!first)
        return 0;
    use->feature = ff;
    use->ptx_line = first->ptx_line;
    use->src_line = first->src_line;
    use->src_file = first->src_file > 0 ? ptx_source_file(m, first->src_file) : NULL;
    return 1;
}

int ptx_module_target_sm(const ptx_module_t *m)
{
    return m->target_sm;
}

int ptx_text_target_sm(const char *text, size_t len)
{
    ptx_lexer lx;
    ptx_tok t;
    ptx_lex_init(&lx, text, len);
    for (ptx_lex_next(&lx, &t); t.kind != PTX_TOK_EOF; ptx_lex_next(&lx, &t)) {
        if (t.kind != PTX_TOK_IDENT || t.len != 7 || memcmp(t.p, ".target", 7) != 0)
            continue;
        ptx_lex_next(&lx, &t);
        int sm = 0;
        if (t.kind == PTX_TOK_IDENT && t.len > 3 && !memcmp(t.p, "sm_", 3))
            for (size_t i = 3; i < t.len && t.p[i] >= '0' && t.p[i] <= '9' && sm < 10000; i++)
                sm = sm * 10 + (t.p[i] - '0');
        return sm;
    }
    return 0;
}
