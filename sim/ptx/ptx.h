/* ptx.h — the decoded PTX module: the PTX front end's public face, beside sim.h
 * (which keeps the module opaque). The interpreter runs it; runtime/ reads it where it
 * needs an instruction's decoded facts: the instrumentation (runtime/instrument.c: what to
 * record, the lexer for the text around it) and the fragments view (runtime/fragments.c).
 *
 * ptx_parse() turns PTX text into this form once; the interpreter (sim/exec_*.c) never
 * touches strings or hash tables. Every instruction of every function lives in one
 * array (ptx_module.code); a PC is an index into it. Registers are dense 64-bit slots
 * per function; predicates are slots holding 0 or 1.
 */
#ifndef GL_PTX_H
#define GL_PTX_H

#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"

/* Opcodes, from ptx_ops.def. */
typedef enum ptx_op {
#define BIN(n, cls, sm, ptx, i, f, d) PTX_OP_##n,
#define UN(n, cls, sm, ptx, i, f, d) PTX_OP_##n,
#define OP(n, cls, k, sm, ptx, syntax) PTX_OP_##n,
#include "sim/ptx/ptx_ops.def"
#undef BIN
#undef UN
#undef OP
    PTX_OP_COUNT
} ptx_op;

/* The tensor-core ops (the last lines of ptx_ops.def: mma ... movmatrix, PTX ISA §9.7.14):
 * warp-wide, `.aligned`, run by exec_mma.c. */
#define PTX_IS_MMA(op) ((unsigned)(op) >= PTX_OP_mma && (unsigned)(op) <= PTX_OP_movmatrix)

/* What ptx_ops.def says of one op (PTX ISA §9.7 "Instructions"), indexed by ptx_op
 * (ptx_ops.c). */
typedef struct ptx_op_info {
    const char *name;   /* the parser's name, without modifiers ("bar_warp" for
                           bar.warp.sync) */
    const char *syntax; /* as PTX writes it before type and space: "bar.warp.sync",
                           "redux.sync", "cp.async" */
    uint8_t cls;        /* trace.h TRACE_CLASS_* */
    int8_t nopnd;       /* operands the parser checks, destination included; -1: the
                           modifiers decide (ptx_parse.c) */
    uint8_t first_sm;   /* the first target that has it (80: sm_80) */
    uint8_t first_ptx;  /* the first PTX ISA version, x 10 (70: 7.0) */
} ptx_op_info;
extern const ptx_op_info ptx_op_table[PTX_OP_COUNT];

/* The op whose mnemonic (without modifiers, PTX ISA §9.7) is name[0..len); -1 when the
 * simulator knows none. */
int ptx_op_lookup(const char *name, size_t len);

/* Instruction types (PTX ISA §5.2 fundamental types). Low nibble: size in bytes
 * (pred: 1); high nibble: class. */
enum { PTX_TC_B = 0x00, PTX_TC_U = 0x10, PTX_TC_S = 0x20, PTX_TC_F = 0x30, PTX_TC_PRED = 0x40 };
typedef enum ptx_type {
    PTX_T_NONE = 0,
    PTX_T_B8 = 0x01,
    PTX_T_B16 = 0x02,
    PTX_T_B32 = 0x04,
    PTX_T_B64 = 0x08,
    PTX_T_U8 = 0x11,
    PTX_T_U16 = 0x12,
    PTX_T_U32 = 0x14,
    PTX_T_U64 = 0x18,
    PTX_T_S8 = 0x21,
    PTX_T_S16 = 0x22,
    PTX_T_S32 = 0x24,
    PTX_T_S64 = 0x28,
    PTX_T_F16 = 0x32,
    PTX_T_F32 = 0x34,
    PTX_T_F64 = 0x38,
    PTX_T_PRED = 0x41,
    /* Half-precision extras (PTX ISA §5.2.1, §9.7.4 half precision): bf16 is its own
     * class; the packed pairs f16x2/bf16x2 are 4-byte values of class PTX_TC_H2/BH2. */
    PTX_T_BF16 = 0x52,
    PTX_T_F16X2 = 0x64,
    PTX_T_BF16X2 = 0x74,
    /* Packed pairs of 16-bit integers (PTX ISA §9.7.1.1 add, §9.7.1.10 min/max; sm_90):
     * 4-byte values of class PTX_TC_U2/S2, only for add, min and max. */
    PTX_T_U16X2 = 0x84,
    PTX_T_S16X2 = 0x94,
    /* .b128 (PTX ISA §5.2.2, sm_70, PTX ISA 8.3): only in register declarations, where it
     * takes two slots (the low 64 bits, then the high ones); an instruction of type .b128
     * (mov, ld, ldu, st, atom.exch/.cas) is decoded as .v2.b64 on those two slots. */
    PTX_T_B128 = 0xa8,
} ptx_type;
enum { PTX_TC_BF = 0x50, PTX_TC_H2 = 0x60, PTX_TC_BH2 = 0x70, PTX_TC_U2 = 0x80, PTX_TC_S2 = 0x90 };
#define PTX_TSIZE(t) ((unsigned)((t)&0x0f))
#define PTX_TCLASS(t) ((t)&0xf0)

/* Operand kinds. */
enum {
    PTX_OPK_NONE = 0,
    PTX_OPK_REG,   /* reg: slot */
    PTX_OPK_IMM,   /* imm: bits (floats already converted to the instruction type) */
    PTX_OPK_SREG,  /* sub: special register id (PTX_SREG_*) */
    PTX_OPK_SYM,   /* sym: symbol index; value is the symbol's address */
    PTX_OPK_ADDR,  /* [reg + sym + imm]; reg == PTX_NOREG / sym < 0 when absent */
    PTX_OPK_VEC,   /* sub: count; imm: up to 4 register slots, 16 bits each */
    PTX_OPK_RLIST, /* a register list of a tensor-core instruction (PTX ISA §9.7.14):
                      sub: count (1 ... 32); imm: index of its first slot in
                      ptx_module.rlist (PTX_NOREG for a sink `_`) */
};
#define PTX_NOREG 0xffffu
/* Deepest call chain a thread may have (the simulator's frame stack; recursion deeper
 * than this is reported as a call-stack overflow). */
#define PTX_MAX_CALL_DEPTH 32
/* The address of function i as a value (`mov.u64 %rd, f;`, a `.u64 t[] = {f, g}`
 * initializer; PTX ISA §9.7.12.5 call through a register): PTX_FUNC_ADDR_BASE + 16 i, an
 * address below every memory window of the simulator, so that a load from it faults and
 * an indirect call through any other value names no function. */
#define PTX_FUNC_ADDR_BASE 0x0000600000000000ull
#define PTX_FUNC_ADDR(i) (PTX_FUNC_ADDR_BASE + 16ull * (uint64_t)(i))

/* Special registers (PTX ISA §10). */
enum {
    PTX_SREG_TID_X,
    PTX_SREG_TID_Y,
    PTX_SREG_TID_Z,
    PTX_SREG_NTID_X,
    PTX_SREG_NTID_Y,
    PTX_SREG_NTID_Z,
    PTX_SREG_CTAID_X,
    PTX_SREG_CTAID_Y,
    PTX_SREG_CTAID_Z,
    PTX_SREG_NCTAID_X,
    PTX_SREG_NCTAID_Y,
    PTX_SREG_NCTAID_Z,
    PTX_SREG_LANEID,
    PTX_SREG_WARPID,
    PTX_SREG_NWARPID,
    PTX_SREG_SMID,
    PTX_SREG_NSMID,
    PTX_SREG_CLOCK,
    PTX_SREG_CLOCK64,
    PTX_SREG_LANEMASK_EQ,
    PTX_SREG_GRIDID,
    PTX_SREG_LANEMASK_LE,
    PTX_SREG_LANEMASK_LT,
    PTX_SREG_LANEMASK_GE,
    PTX_SREG_LANEMASK_GT,
    PTX_SREG_GLOBALTIMER,
    PTX_SREG_GLOBALTIMER_LO,
    PTX_SREG_GLOBALTIMER_HI,
    PTX_SREG_DYNAMIC_SMEM_SIZE,
    PTX_SREG_TOTAL_SMEM_SIZE,
    PTX_SREG_WARPSZ,
    PTX_SREG_CLOCK_HI,
    /* thread block clusters (PTX ISA §10, special registers %clusterid ..
     * %is_explicit_cluster; sm_90): uniform in a CTA */
    PTX_SREG_CLUSTERID_X,
    PTX_SREG_CLUSTERID_Y,
    PTX_SREG_CLUSTERID_Z,
    PTX_SREG_NCLUSTERID_X,
    PTX_SREG_NCLUSTERID_Y,
    PTX_SREG_NCLUSTERID_Z,
    PTX_SREG_CLUSTER_CTAID_X,
    PTX_SREG_CLUSTER_CTAID_Y,
    PTX_SREG_CLUSTER_CTAID_Z,
    PTX_SREG_CLUSTER_NCTAID_X,
    PTX_SREG_CLUSTER_NCTAID_Y,
    PTX_SREG_CLUSTER_NCTAID_Z,
    PTX_SREG_CLUSTER_CTARANK,
    PTX_SREG_CLUSTER_NCTARANK,
    PTX_SREG_IS_EXPLICIT_CLUSTER,
    /* the block's reserved shared memory (PTX ISA §10 %reserved_smem_offset_*,
     * sm_80): its first byte, its end, its size and the two offsets in it the
     * driver defines (cooperative_groups/details/memory.h reads %reserved_smem_offset_1
     * as the start of its scratch space); uniform in a CTA */
    PTX_SREG_RESERVED_SMEM_BEGIN,
    PTX_SREG_RESERVED_SMEM_END,
    PTX_SREG_RESERVED_SMEM_CAP,
    PTX_SREG_RESERVED_SMEM_0,
    PTX_SREG_RESERVED_SMEM_1,
    /* %envreg0 .. %envreg31 (PTX ISA §10 %envreg<32>: driver-defined, read-only): ids
     * PTX_SREG_ENVREG0 + n */
    PTX_SREG_ENVREG0,
    PTX_SREG_ENVREG31 = PTX_SREG_ENVREG0 + 31,
};

/* sub: PTX_OPK_SREG: the register id; PTX_OPK_VEC: the element count; PTX_OPK_REG:
 * 1 when written `!%p` (a negated predicate source, vote/setp/selp, PTX ISA §9.7.6);
 * for the first operand of setp/shfl.sync/match.all `d|p` (two destinations): 2, with
 * the second register slot in imm. */
typedef struct ptx_operand {
    uint8_t kind;
    uint8_t sub;
    uint16_t reg;
    int32_t sym;
    uint64_t imm;
} ptx_operand;

/* Instruction modifiers (flags). PTX_F_VOLATILE: .volatile, or a strong ld/st
 * (.relaxed/.acquire/.release/.sc: the memory-model forms, PTX ISA §8). */
enum {
    PTX_F_HI = 1u << 0,
    PTX_F_LO = 1u << 1,
    PTX_F_WIDE = 1u << 2,
    PTX_F_SAT = 1u << 3,
    PTX_F_FTZ = 1u << 4,
    PTX_F_APPROX = 1u << 5,
    PTX_F_UNI = 1u << 6,
    PTX_F_VOLATILE = 1u << 7,
    PTX_F_TO = 1u << 8,
    PTX_F_GUARD_NEG = 1u << 9,
    PTX_F_NC = 1u << 10,
    PTX_F_FULL = 1u << 11,
    PTX_F_SHIFTAMT = 1u << 12,
    PTX_F_NAN = 1u << 13,   /* min/max.NaN: NaN if either input is NaN */
    PTX_F_CC = 1u << 14,    /* add.cc/sub.cc/mad.cc write the carry flag (§9.7.2) */
    PTX_F_CLAMP = 1u << 15, /* shf.clamp, bmsk.clamp (else .wrap) */
};
/* ptx_insn.bop of membar/fence: PTX_MEM_CTA for block scope (.cta, __threadfence_block);
 * of st/atom/red: PTX_MEM_RELEASE for .release, .acq_rel and .sc (PTX ISA §8.4); of
 * ld/st: PTX_MEM_STRONG for the other memory-model forms, .relaxed and .acquire (strong
 * operations, §8.5: not .volatile, which racecheck treats as a plain access). */
enum { PTX_MEM_CTA = 1, PTX_MEM_RELEASE = 2, PTX_MEM_STRONG = 4 };
/* Second-level modes kept in ptx_insn.cmp for ops that have no comparison:
 * shfl.sync mode, vote.sync mode, match mode, redux/atom operation, prmt mode (0 =
 * default, 1..6 = f4e b4e rc8 ecl ecr rc16), shf direction, testp property, bop of
 * setp/set (in ptx_insn.bop), lop3's immLut (in cmp), bfind/shf/... flags above. */
enum { PTX_SHFL_UP = 1, PTX_SHFL_DOWN, PTX_SHFL_BFLY, PTX_SHFL_IDX };
enum {
    PTX_VOTE_ALL = TRACE_VOTE_ALL,
    PTX_VOTE_ANY = TRACE_VOTE_ANY,
    PTX_VOTE_UNI = TRACE_VOTE_UNI,
    PTX_VOTE_BALLOT = TRACE_VOTE_BALLOT
}; /* the vote modes are trace/trace.h's trace_vote_kind */
enum { PTX_MATCH_ANY = 1, PTX_MATCH_ALL };
enum { PTX_SHF_L = 1, PTX_SHF_R };
enum {
    PTX_TESTP_FINITE = 1,
    PTX_TESTP_INFINITE,
    PTX_TESTP_NUMBER,
    PTX_TESTP_NOTANUMBER,
    PTX_TESTP_NORMAL,
    PTX_TESTP_SUBNORMAL
};
/* ptx_insn.bop bits of cvt and of half-precision fma (PTX ISA §9.7.9.21 cvt, §9.7.4.4
 * fma): .satfinite clamps infinities and out-of-range values to the largest finite
 * value; .relu clamps negative results to +0. */
enum { PTX_CVT_SATFINITE = 1, PTX_RELU = 2 };
/* more ptx_insn.bop bits: min/max .xorsign.abs (PTX ISA §9.7.3.11-12, §9.7.4.7-8: the
 * minimum or maximum of |a| and |b| with the sign a ^ b), fma.oob (§9.7.4.4), lop3's
 * .and/.or predicate form (§9.7.8.6: bop PTX_BOP_AND/OR; immLut in cmp, q in the fifth
 * operand) */
enum { PTX_XORSIGN_ABS = 4, PTX_OOB = 8 };
/* cp.async (PTX ISA §9.7.9.25) and mbarrier (§9.7.13.15): the form in ptx_insn.cmp and
 * modifiers in ptx_insn.bop. Operands: cp.async [d], [s], cp-size{, src-size};
 * wait_group N; cp.async.mbarrier.arrive [a]; mbarrier.init [a], count; arrive state,
 * [a]{, count | tx}; expect_tx/complete_tx [a], tx; test_wait/try_wait p, [a],
 * state|parity; pending_count d, state; inval [a]. A sink `_` state is PTX_OPK_NONE. */
enum {
    PTX_CPA_COPY = 1,
    PTX_CPA_COMMIT,
    PTX_CPA_WAIT_GROUP,
    PTX_CPA_WAIT_ALL,
    PTX_CPA_MBAR_ARRIVE,
    PTX_CPA_PREFETCH /* cp.async.bulk.prefetch.L2.global [a], size (§9.7.9.25.4.3): a hint */
};
enum {
    PTX_MBAR_INIT = 1,
    PTX_MBAR_ARRIVE,
    PTX_MBAR_ARRIVE_DROP,
    PTX_MBAR_EXPECT_TX,
    PTX_MBAR_COMPLETE_TX,
    PTX_MBAR_TEST_WAIT,
    PTX_MBAR_TRY_WAIT,
    PTX_MBAR_PENDING_COUNT,
    PTX_MBAR_INVAL
};
enum { PTX_MBAR_PARITY = 1, PTX_MBAR_TX = 2, PTX_MBAR_NOINC = 4 };
/* cp.async.bulk (PTX ISA §9.7.9.25.4): bop bits of PTX_OP_cp. PTX_CPA_BULK: the .bulk
 * forms (copy, commit_group, wait_group{.read}); a copy [d], [s], size, [mbar] with
 * .mbarrier::complete_tx::bytes (PTX_CPA_BULK_MBAR: global to shared) or [d], [s], size
 * with .bulk_group (shared to global). */
enum { PTX_CPA_BULK = 8, PTX_CPA_BULK_MBAR = 16 };
/* cp.reduce.async.bulk.redOp.type (PTX ISA §9.7.9.25.4.2): bop PTX_CPA_REDUCE with a bulk
 * copy's operands; the element type in type2, the operation (PTX_ATOM_*) in rnd. */
enum { PTX_CPA_REDUCE = 32 };
/* Boolean combining of setp/set (`setp.lt.and.s32 p, a, b, c`, PTX ISA §9.7.6.1). */
enum { PTX_BOP_NONE = 0, PTX_BOP_AND, PTX_BOP_OR, PTX_BOP_XOR };
/* bar/barrier (PTX ISA §9.7.13.1): the form in ptx_insn.cmp, and for .red the operation
 * in ptx_insn.bop (PTX_BOP_AND, PTX_BOP_OR or PTX_BAR_POPC). Operands: sync and arrive:
 * o[0] barrier id a, o[1] thread count b (PTX_OPK_NONE: all threads of the CTA); red:
 * o[0] destination d, o[1] a, o[2] b (or PTX_OPK_NONE), o[3] the predicate c. */
enum { PTX_BAR_SYNC = 0, PTX_BAR_ARRIVE, PTX_BAR_RED };
enum { PTX_BAR_POPC = 4 };
/* barrier.cluster (PTX ISA §9.7.13.2): ptx_insn.cmp is the form; bop PTX_BARC_RELAXED
 * for .arrive.relaxed (no release ordering). No operands. */
enum { PTX_BARC_ARRIVE = 1, PTX_BARC_WAIT };
enum { PTX_BARC_RELAXED = 1 };
/* SIMD video instructions (PTX ISA §9.7.16.2: vadd2 ... vset4). type: .dtype (vset:
 * .u32, its results are unsigned), type2: .atype, vec: lanes (2 or 4), cmp: vset's
 * comparison (PTX_CMP_EQ..PTX_CMP_GE), flags: PTX_F_SAT. They have no fifth operand, so
 * the rest is packed in target: for each lane i, the element of {b, a} (bytes 0-7 or
 * half-words 0-3) that .asel and .bsel pick, 3 bits each; .mask (bit i: lane i is
 * written, else it keeps c's); .add; .btype's signedness. */
#define PTX_V_ASEL(tg, i) ((unsigned)((tg) >> (3 * (i))) & 7u)
#define PTX_V_BSEL(tg, i) ((unsigned)((tg) >> (12 + 3 * (i))) & 7u)
#define PTX_V_MASK(tg) ((unsigned)((tg) >> 24) & 15u)
enum { PTX_V_ADD = 1 << 28, PTX_V_BSIGNED = 1 << 29 };
/* Scalar video instructions (PTX ISA §9.7.18.1: vadd vsub vabsdiff vmin vmax vshl vshr
 * vmad vset). type: .dtype (vset: .u32), type2: .atype, flags: PTX_F_SAT, PTX_F_CLAMP
 * (vshl/vshr .clamp, else .wrap), cmp: vset's comparison. The rest in target: the
 * selectors of a, b and d (0: the whole word, 1-4: .b0-.b3, 5-6: .h0-.h1), the
 * secondary operation (1 .add, 2 .min, 3 .max), .btype's signedness, vmad's .shr7 (1)
 * or .shr15 (2), .po and the negated operands. */
#define PTX_SV_ASEL(tg) ((unsigned)(tg)&7u)
#define PTX_SV_BSEL(tg) ((unsigned)((tg) >> 3) & 7u)
#define PTX_SV_DSEL(tg) ((unsigned)((tg) >> 6) & 7u)
#define PTX_SV_OP2(tg) ((unsigned)((tg) >> 9) & 3u)
#define PTX_SV_SCALE(tg) ((unsigned)((tg) >> 12) & 3u)
enum {
    PTX_SV_BSIGNED = 1 << 11,
    PTX_SV_PO = 1 << 14,
    PTX_SV_NEG_A = 1 << 15
}; /* NEG_B, NEG_C:
                                                                  the next two bits */
/* Rounding modifiers (PTX ISA §9.7.3 / §9.7.9.21 cvt). */
enum {
    PTX_RND_NONE,
    PTX_RND_RN,
    PTX_RND_RZ,
    PTX_RND_RM,
    PTX_RND_RP,
    PTX_RND_RNI,
    PTX_RND_RZI,
    PTX_RND_RMI,
    PTX_RND_RPI,
    PTX_RND_RNA /* nearest, ties away from zero: cvt.rna.tf32.f32 only */
};
/* cvt to or from the types that are no register type (PTX ISA §9.7.9.21): ptx_insn.cmp of
 * cvt is 0, or which one: .tf32 destination (a .b32 holding an f32 with 10 mantissa
 * bits), .e4m3x2 / .e5m2x2 destination (a .b16, a's value in the upper byte), or those
 * as the source of cvt.f16x2. */
enum {
    PTX_CVT_TF32 = 1,
    PTX_CVT_TO_E4M3X2,
    PTX_CVT_TO_E5M2X2,
    PTX_CVT_FROM_E4M3X2,
    PTX_CVT_FROM_E5M2X2
};
/* Comparison operators of setp/set (PTX ISA §9.7.1.x, Table "comparison operators"). */
enum {
    PTX_CMP_EQ = 1,
    PTX_CMP_NE,
    PTX_CMP_LT,
    PTX_CMP_LE,
    PTX_CMP_GT,
    PTX_CMP_GE,
    PTX_CMP_LO,
    PTX_CMP_LS,
    PTX_CMP_HI,
    PTX_CMP_HS,
    PTX_CMP_EQU,
    PTX_CMP_NEU,
    PTX_CMP_LTU,
    PTX_CMP_LEU,
    PTX_CMP_GTU,
    PTX_CMP_GEU,
    PTX_CMP_NUM,
    PTX_CMP_NAN
};
/* atom/red operations (PTX ISA §9.7.12.x atom). */
enum {
    PTX_ATOM_ADD = 1,
    PTX_ATOM_MIN,
    PTX_ATOM_MAX,
    PTX_ATOM_AND,
    PTX_ATOM_OR,
    PTX_ATOM_XOR,
    PTX_ATOM_EXCH,
    PTX_ATOM_CAS,
    PTX_ATOM_INC,
    PTX_ATOM_DEC
};

/* One decoded instruction: fixed size, no pointers into strings. */
typedef struct ptx_insn {
    uint8_t op;       /* ptx_op */
    uint8_t type;     /* ptx_type of the operation (destination type for cvt) */
    uint8_t type2;    /* cvt: source type; setp/set: compared type */
    uint8_t space;    /* sim_space for ld/st/atom/cvta */
    uint8_t rnd;      /* PTX_RND_* */
    uint8_t cmp;      /* PTX_CMP_*, or PTX_ATOM_* for atom/red */
    uint8_t vec;      /* 1, 2 or 4 */
    uint8_t nopnd;    /* operands used */
    uint16_t flags;   /* PTX_F_* */
    uint16_t guard;   /* predicate slot or PTX_NOREG */
    int32_t target;   /* bra: target PC; call: index into ptx_module.calls; a fifth
                         operand's register slot or 32-bit immediate (see o4kind);
                         add.cc/addc/...: the function's hidden carry register slot */
    int32_t ptx_line; /* line in the PTX text, 1-based */
    int32_t src_line; /* CUDA source line from .loc, 0 unknown */
    int16_t src_file; /* .file index from .loc, 0 unknown */
    int16_t func;     /* index of the function holding it */
    uint8_t bop;      /* setp/set: PTX_BOP_* combining with the predicate operand */
    uint8_t o4kind;   /* fifth operand (bfi len, shfl.sync membermask, lop3 immLut):
                         PTX_OPK_NONE, PTX_OPK_REG or PTX_OPK_IMM; value in target */
    uint16_t mnem;    /* its full mnemonic: index into ptx_module.mnems (0: none kept;
                         ptx_insn_mnemonic). What the executor derives from an
                         instruction, such as its fast-path kind, it keeps in tables of
                         its own, indexed by PC. */
    ptx_operand o[4]; /* o[0] destination (or address for st), then sources */
} ptx_insn;
_Static_assert(sizeof(ptx_insn) == 96, "ptx_insn is meant to stay 96 bytes");

/* Symbols that instructions refer to, resolved at parse time. */
typedef enum ptx_sym_kind {
    PTX_SYM_GLOBAL,    /* module .global/.const variable: value is var index */
    PTX_SYM_SHARED,    /* static shared: offset in the CTA's shared memory */
    PTX_SYM_DYNSHARED, /* extern .shared: at the end of the kernel's static shared */
    PTX_SYM_LOCAL,     /* .local: offset in the function's local frame */
    PTX_SYM_KPARAM,    /* kernel .param: offset in the launch's parameter buffer */
    PTX_SYM_FPARAM,    /* .func param / return / call-sequence .param: frame offset */
    PTX_SYM_FUNC,      /* a function (call target) */
} ptx_sym_kind;

typedef struct ptx_sym {
    uint8_t kind;
    uint8_t owned; /* parse-time only: shared owned by an entry */
    int64_t value;
} ptx_sym;

/* A module-level .global or .const variable. */
typedef struct ptx_var {
    char *name;
    int is_const;
    unsigned align;
    size_t size;
    unsigned char *init; /* size bytes, or NULL for zeros */
} ptx_var;

typedef struct ptx_param {
    char name[64];
    unsigned size, align, offset;
} ptx_param;

/* A call site: the callee and where its arguments and return value live in the
 * caller's parameter frame. */
typedef struct ptx_call {
    int callee; /* function index; -1: an indirect call (fptr) */
    int fptr;   /* indirect call (PTX ISA §9.7.12.5 call through a register): the caller's
                   register slot holding the function's address (PTX_FUNC_ADDR); -1 direct */
    int nrets;  /* indirect call: its .callprototype's return parameters (0 or 1) */
    int nargs;
    int ret_off;    /* caller frame offset of the return .param, -1 none */
    int arg_off[8]; /* caller frame offsets of the argument .params */
    int line, col;  /* of the call in the PTX text (for messages) */
} ptx_call;

/* A register slot's declaration, for the registers view (trace.h TRACE_EV_REG). */
typedef struct ptx_reginfo {
    char name[31]; /* as declared: "%r12", "%fd3", "%p1" (longer names truncated) */
    uint8_t type;  /* ptx_type of its .reg declaration (the carry flag: PTX_T_B32) */
} ptx_reginfo;

typedef struct ptx_func {
    char *name;
    int is_entry;
    int is_extern;  /* declared only (vprintf, malloc, ...) */
    int addr_taken; /* its address is a value (mov, an initializer): indirect calls may
                       reach it */
    int builtin;    /* PTX_BUILTIN_* for extern functions we implement */
    int entry_pc;   /* first instruction, -1 when no body */
    int end_pc;
    int nregs;            /* register slots */
    ptx_reginfo *reginfo; /* nregs declarations (slot -> name, type) */
    int reginfo_cap;
    int reg_base;      /* this function's first slot in the module-wide numbering of
                          trace.regs (the sum of nregs of the functions before it) */
    ptx_param *params; /* .entry: kernel params; .func: in the frame after rets */
    int nparams;
    ptx_param *rets; /* .func return params, at frame offset 0.. */
    int nrets;
    unsigned kparam_size;   /* .entry: bytes of the parameter buffer */
    unsigned frame_size;    /* bytes of the param frame (params, rets, call .params) */
    unsigned local_size;    /* bytes of .local declared in the function */
    unsigned shared_size;   /* .entry: static shared bytes (module + own) */
    unsigned dynshared_off; /* .entry: where extern .shared starts */
    unsigned cluster[3];    /* .entry: .reqnctapercluster (PTX ISA §11.4, sm_90), the
                               CTAs per cluster in x, y, z; 0s when absent */
    int explicit_cluster;   /* .entry: .explicitcluster or .reqnctapercluster given */
} ptx_func;

/* extern functions the simulator provides: vprintf (printf) and __assertfail (a failed
 * assert(): CUDA C++ Programming Guide "Assertion") */
enum { PTX_BUILTIN_NONE, PTX_BUILTIN_VPRINTF, PTX_BUILTIN_ASSERTFAIL };

/* A .shared variable, for naming shared addresses in messages ("s[63]"). */
typedef struct ptx_shvar {
    char *name;  /* as declared (NVRTC and clang mangle block-scope ones: _ZZ...E1s) */
    int sym;     /* its ptx_sym: PTX_SYM_SHARED (value: offset in the block's shared
                   memory, final after parsing) or PTX_SYM_DYNSHARED (extern: at the
                   entry's dynshared_off) */
    int func;    /* the entry declaring it, -1 at module scope (every entry has it) */
    size_t size; /* bytes; 0 for extern */
} ptx_shvar;

typedef struct ptx_module ptx_module;
struct ptx_module {
    uint64_t id; /* unique per parsed module, so a sim can tell modules apart */
    char *name;
    ptx_insn *code;
    int ncode;
    ptx_func *funcs;
    int nfuncs;
    ptx_sym *syms;
    int nsyms;
    ptx_var *vars;
    int nvars;
    ptx_call *calls;
    int ncalls;
    uint16_t *rlist; /* register slots of the PTX_OPK_RLIST operands */
    int nrlist;
    int32_t *btab; /* the PCs of the .branchtargets lists brx.idx reads (PTX ISA
                      §9.7.12.4): brx.idx's target is its list's first entry, o[1].imm
                      the list's length */
    int nbtab;
    char **files; /* .file index -> name (index 0 unused) */
    int nfiles;
    unsigned module_shared; /* bytes of module-scope .shared */
    ptx_shvar *shvars;      /* every .shared variable, in declaration order */
    int nshvars;
    unsigned max_frame, max_local, max_regs, sum_frame, sum_local, sum_regs;
    /* source variables in registers, from a debug build's DWARF (ptx_dwarf.h); none
     * without debug information */
    struct ptx_srcvar *srcvars;
    int nsrcvars;
    /* the distinct full mnemonics as written ("cp.async.ca.shared.global"), for
     * ptx_insn.mnem; [0] is NULL */
    char **mnems;
    int nmnems;
    int target_sm;   /* the .target directive's sm_XY (90 for sm_90a), 0 none */
    int ptx_version; /* the .version directive, x 10 (83 for 8.3), 0 none */
};

/* The full mnemonic of in as written, every modifier included
 * ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"); the op's syntax when the
 * module kept none (a `ret` the parser added). */
const char *ptx_insn_mnemonic(const ptx_module *m, const ptx_insn *in);

/* The form of in that needs the newest target and PTX ISA version (sim.h
 * ptx_feature): the op's own (ptx_ops.def), or a later form of it by its modifiers,
 * types or shape (mma.m16n8k16, add.bf16, cp.async.bulk, ...), or the %cluster
 * special registers among its operands. Never NULL. */
const struct ptx_feature *ptx_insn_feature(const ptx_module *m, const ptx_insn *in);

/* ------------------------------------------------------------------ lexer */
typedef enum ptx_tok_kind {
    PTX_TOK_EOF,
    PTX_TOK_IDENT,
    PTX_TOK_INT,
    PTX_TOK_FLOAT,
    PTX_TOK_STRING,
    PTX_TOK_PUNCT,
} ptx_tok_kind;

typedef struct ptx_tok {
    ptx_tok_kind kind;
    const char *p; /* start in the source text */
    size_t len;
    int line, col;
    uint64_t ival; /* PTX_TOK_INT; also the bits of 0f/0d literals (PTX_TOK_FLOAT) */
    double fval;   /* PTX_TOK_FLOAT */
    int fbits;     /* PTX_TOK_FLOAT: 32 for 0fXXXXXXXX, 64 for 0d..., 0 decimal */
} ptx_tok;

typedef struct ptx_lexer {
    const char *src, *end, *cur;
    int line;
    const char *line_start;
} ptx_lexer;

/* Initialises a lexer over src[0..len). */
void ptx_lex_init(ptx_lexer *lx, const char *src, size_t len);
/* Reads the next token, skipping whitespace and comments. Returns 0 on a character
 * that starts no token (*t then describes it, as a one-byte PTX_TOK_PUNCT). */
int ptx_lex_next(ptx_lexer *lx, ptx_tok *t);

struct mma_desc;
/* The decoded form of tensor-core instruction in (mma, wmma.*, ldmatrix, stmatrix,
 * movmatrix; sim/mma.h): its kind from the opcode and the rest from in->target, where
 * the parser packed it (mma_pack). Returns 1, or 0 (d untouched) for any other op. */
int ptx_mma_desc(const ptx_insn *in, struct mma_desc *d);

/* Name resolution, for tests: one use of a register, a variable (or parameter) or a
 * label in an instruction, and the declaration the parser bound it to, following the
 * scopes of `{ }` blocks (PTX ISA §9.7.12.1). tests/test_scope_sweep.c compares them
 * with a scope walk of its own over the PTX text. */
typedef enum ptx_binding_kind { PTX_BIND_REG, PTX_BIND_VAR, PTX_BIND_LABEL } ptx_binding_kind;
typedef struct ptx_binding {
    int line, col;           /* the use: PTX line and byte column, both 1-based */
    int decl_line, decl_col; /* the name in its declaration (.reg, variable, parameter)
                                or label definition */
    int kind;                /* ptx_binding_kind */
} ptx_binding;

/* ptx_parse, also listing every name an instruction uses that the parser resolved, in
 * the order parsed, into *binds (*nbinds entries; caller frees; NULL and 0 when parsing
 * failed). The carry flag of add.cc/addc (declared by no one) is not listed. */
sim_status ptx_parse_bindings(const char *text, size_t len, const char *name, ptx_module_t **out,
                              char **diag, ptx_binding **binds, int *nbinds);

#endif
