/* exec_fast.h — private to sim/: the fast tiers, included by exec_issue.c (which runs
 * them), exec_fast.c (which decodes for them) and jit.c (which translates the same
 * kernels). exec_fast and the
 * full-warp kernels are static inline so that the issue loop and run-ahead compile them
 * into their own loops, as one translation unit.
 */
#ifndef GL_SIM_EXEC_FAST_H
#define GL_SIM_EXEC_FAST_H

#include "sim/exec.h"

/* ------------------------------------------------------------ fast paths
 * Decode once (STYLE.md "Interpreter core"): fast_kind gives the common forms of the
 * hot instructions (integer add/sub/mul/mad/logic/shift/mov/selp/setp/cvt, f32
 * add/sub/mul/fma with the default rounding, all with register or immediate sources) a
 * fast-path kind, and exec_fast runs them with the operands resolved once per warp
 * instruction instead of once per lane, and the switch outside the lane loop. Each kind
 * computes exactly what the general handler in sim_exec_insn computes for that form (the
 * same PTX ISA sections); anything else is FK_NONE. The kinds are the executor's, not
 * the IR's: sim_fast_kinds decodes a module's once, the first time a sim launches it
 * (sim.c module_fast), into a table indexed by PC (sim_ctx.fast). */
enum {
    FK_NONE,
    FK_ADD,
    FK_SUB,
    FK_AND,
    FK_OR,
    FK_XOR,
    FK_MULLO,
    FK_MADLO,
    FK_MULWIDE_U,
    FK_MULWIDE_S,
    FK_MADWIDE_U,
    FK_MADWIDE_S,
    FK_SHL,
    FK_SHR_U,
    FK_SHR_S,
    FK_MOV,
    FK_SELP,
    FK_CVT_II,
    FK_SETP_U,
    FK_SETP_S,
    FK_SETP_F32,
    FK_FADD,
    FK_FSUB,
    FK_FMUL,
    FK_FFMA,
    FK_CVTA,
    /* the kinds below have no register or immediate sources (exec_fast's P[]) */
    FK_LD,
    FK_ST,
    FK_LDG,
    FK_STG,
    FK_LDS,
    FK_STS,
    FK_MOV_SREG,
    FK_MOV_SYM,
    FK_BRA,
    FK_EXIT,
};

/* 32 lanes' PCs four at a time (GCC/Clang vector extensions; plain SSE2 on x86-64). */
typedef uint32_t sim_u32x4 __attribute__((vector_size(16)));
static inline int pcs_all_equal(const uint32_t *pcs, uint32_t p)
{
    const sim_u32x4 pv = {p, p, p, p};
    sim_u32x4 diff = {0, 0, 0, 0};
    for (unsigned i = 0; i < 32; i += 4) {
        sim_u32x4 v;
        memcpy(&v, pcs + i, sizeof v);
        diff |= v ^ pv;
    }
    return (diff[0] | diff[1] | diff[2] | diff[3]) == 0;
}
static inline void pcs_set(uint32_t *pcs, uint32_t p)
{
    const sim_u32x4 pv = {p, p, p, p};
    memcpy(pcs, &pv, sizeof pv);
    memcpy(pcs + 4, &pv, sizeof pv);
    memcpy(pcs + 8, &pv, sizeof pv);
    memcpy(pcs + 12, &pv, sizeof pv);
    memcpy(pcs + 16, &pv, sizeof pv);
    memcpy(pcs + 20, &pv, sizeof pv);
    memcpy(pcs + 24, &pv, sizeof pv);
    memcpy(pcs + 28, &pv, sizeof pv);
}

/* Full-warp kernels of exec_fast (every lane of the warp, registers one lane-major
 * block): GCC/Clang vector extensions, two lanes per 16-byte vector (SSE2 on x86-64,
 * NEON on aarch64). A 32-bit operation works on the vector's 32-bit elements: the even
 * ones are the lanes' low halves, the odd ones (the high halves) are cleared, which
 * gives exactly the zero-extended results of the per-lane code (the low 32 bits of
 * add/sub/mul/logic/shift results and of 32-bit compares depend only on the sources'
 * low halves). */
typedef uint64_t sim_v64 __attribute__((vector_size(16)));
typedef int64_t sim_vs64 __attribute__((vector_size(16)));
typedef uint32_t sim_v32 __attribute__((vector_size(16)));
typedef int32_t sim_vs32 __attribute__((vector_size(16)));
typedef float sim_vf32 __attribute__((vector_size(16)));
typedef uint32_t sim_v32x2 __attribute__((vector_size(8))); /* two lanes' low halves */
#if defined(__has_builtin)
#if __has_builtin(__builtin_convertvector)
#define SIM_HAVE_CONVERTVECTOR 1
#endif
#endif
#ifndef SIM_HAVE_CONVERTVECTOR
#define SIM_HAVE_CONVERTVECTOR 0
#endif

static inline sim_v64 vld64(const uint64_t *p)
{
    sim_v64 v;
    memcpy(&v, p, sizeof v);
    return v;
}
/* the same 16 bytes as 32-bit elements: unsigned, signed, float (vector casts keep bits) */
static inline sim_v32 vld32(const uint64_t *p)
{
    return (sim_v32)vld64(p);
}
static inline sim_vs32 vlds32(const uint64_t *p)
{
    return (sim_vs32)vld64(p);
}
static inline sim_vf32 vldf32(const uint64_t *p)
{
    return (sim_vf32)vld64(p);
}
static inline void vst64(uint64_t *p, sim_v64 v)
{
    memcpy(p, &v, sizeof v);
}
static inline void vst32(uint64_t *p, sim_v32 v)
{
    memcpy(p, &v, sizeof v);
}
/* the low halves (even 32-bit elements) */
#define VLO ((sim_v32){0xffffffffu, 0, 0xffffffffu, 0})
/* for every pair of lanes l, l+1 of the warp */
#define VPAIRS(STMT)                                                                               \
    do {                                                                                           \
        _Pragma("GCC unroll 16") for (unsigned l = 0; l < 32; l += 2)                              \
        {                                                                                          \
            STMT;                                                                                  \
        }                                                                                          \
    } while (0)

/* Row Dp of a full warp whose first thread is base: lane l's thread index & k (%tid.x
 * of a one-dimensional block), two lanes per step from one running vector */
static inline void tidx_row(uint64_t *Dp, unsigned base, uint64_t k)
{
    sim_v64 t = {base, (uint64_t)base + 1};
    const sim_v64 kv = {k, k}, two = {2, 2};
    VPAIRS(vst64(Dp + l, t & kv); t += two);
}

/* Whether row A of a full warp holds A[0] + l * step in lane l (mod 2^64), two lanes
 * per vector */
static inline int row_unit_stride(const uint64_t *A, uint64_t step)
{
    const uint64_t a = A[0];
    if (A[31] != a + 31 * step) /* the common other patterns fail here (half-warp rows) */
        return 0;
    sim_v64 acc = {0, 0}, want = {a, a + step};
    const sim_v64 two = {2 * step, 2 * step};
    VPAIRS(acc |= vld64(A + l) ^ want; want += two);
    return (acc[0] | acc[1]) == 0;
}

/* f32 results with NaNs canonical (canon32), in the low halves */
static inline sim_v32 vcanon32(sim_vf32 r)
{
    sim_v32 u;
    memcpy(&u, &r, sizeof u);
    const sim_v32 nan = (sim_v32)(r != r);
    return ((nan & NAN32) | (~nan & u)) & VLO;
}

/* mul.wide.s32 of two lanes (PTX ISA §9.7.1.3): the unsigned product of the low halves
 * less 2^32 times each source whose sign bit is set times the other (mod 2^64), so that
 * SSE2's unsigned 32 x 32 -> 64-bit multiply (pmuludq) serves. */
static inline sim_v64 vmulwide_s(sim_v64 a, sim_v64 b)
{
#if defined(__x86_64__) && defined(__SSE2__)
    const __m128i A = (__m128i)a, B = (__m128i)b;
    /* each lane's low-half sign as a 64-bit mask (pshufd, psrad) */
    const __m128i an = _mm_srai_epi32(_mm_shuffle_epi32(A, _MM_SHUFFLE(2, 2, 0, 0)), 31);
    const __m128i bn = _mm_srai_epi32(_mm_shuffle_epi32(B, _MM_SHUFFLE(2, 2, 0, 0)), 31);
    const __m128i corr = _mm_add_epi64(_mm_and_si128(_mm_slli_epi64(B, 32), an),
                                       _mm_and_si128(_mm_slli_epi64(A, 32), bn));
    return (sim_v64)_mm_sub_epi64(_mm_mul_epu32(A, B), corr);
#else
    a &= 0xffffffffu;
    b &= 0xffffffffu;
    return a * b - ((b << 32) & -((a >> 31) & 1)) - ((a << 32) & -((b >> 31) & 1));
#endif
}

/* fma.rn.f32 for a full warp with the AVX and FMA instructions of x86-64 CPUs that have
 * them (a fused multiply-add rounds once, exactly as fmaf; the build targets baseline
 * x86-64, where fmaf is a library call per lane). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SIM_X86_FMA 1
static inline int have_fma(void)
{
    /* libgcc's CPU model, set up at start-up */
    return __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx");
}
/* Four lanes per step: each lane's f32 is the low half of its 64-bit slot. The high
 * halves go through the same operations (no trap: exceptions are masked) and are
 * cleared. NaN results become canon32's NaN. D may be A, B or C: each step reads its
 * four lanes before it writes them. */
__attribute__((target("avx,fma"))) static inline void
ffma_full_fma3(uint64_t *D, const uint64_t *A, const uint64_t *B, const uint64_t *C)
{
    const __m256 lo = _mm256_castsi256_ps(_mm256_set1_epi64x(0xffffffff));
    const __m256 qnan = _mm256_castsi256_ps(_mm256_set1_epi64x(NAN32));
    for (unsigned l = 0; l < 32; l += 4) {
        const __m256 a = _mm256_loadu_ps((const float *)(const void *)(A + l));
        const __m256 b = _mm256_loadu_ps((const float *)(const void *)(B + l));
        const __m256 c = _mm256_loadu_ps((const float *)(const void *)(C + l));
        const __m256 r = _mm256_fmadd_ps(a, b, c);
        const __m256 nan = _mm256_cmp_ps(r, r, _CMP_UNORD_Q);
        const __m256 v = _mm256_or_ps(_mm256_andnot_ps(nan, r), _mm256_and_ps(nan, qnan));
        _mm256_storeu_ps((float *)(void *)(D + l), _mm256_and_ps(v, lo));
    }
}
#else
#define SIM_X86_FMA 0
#endif

/* Full-warp vector kernels (exec_fh): one per operation, type and form, chosen for each
 * instruction once per launch (full_handler, kept in struct sim_fops) so that a warp
 * instruction is one switch and one loop over the lanes. They compute exactly what
 * exec_fast's per-lane code computes. */
enum {
    FH_NONE,
    /* setp.CMP.{u,s,b}32 (PTX ISA §9.7.6.2 setp, as sim_compare()): a 0 or 1 per lane */
    FH_SETP32_EQ,
    FH_SETP32_NE,
    FH_SETP32_LT_S,
    FH_SETP32_LE_S,
    FH_SETP32_GT_S,
    FH_SETP32_GE_S,
    FH_SETP32_LT_U,
    FH_SETP32_LE_U,
    FH_SETP32_GT_U,
    FH_SETP32_GE_U,
    /* 32-bit integer (PTX ISA §9.7.1, §9.7.7): results zero-extended */
    FH_ADD32,
    FH_SUB32,
    FH_AND32,
    FH_OR32,
    FH_XOR32,
    FH_MULLO32,
    FH_MADLO32,
    FH_MULWIDE_U32,
    FH_MADWIDE_U32,
    FH_MULWIDE_S32,
    FH_MADWIDE_S32,
    FH_SHL32_I,
    FH_SHR_U32_I,
    FH_SHR_S32_I, /* by an immediate amount (sa) */
    FH_ZERO,      /* shl/shr.u by the width or more: 0 */
    /* f32 with the default rounding (PTX ISA §9.7.3): NaN results canonical */
    FH_FADD,
    FH_FSUB,
    FH_FMUL,
    FH_FFMA,
    /* 64-bit integer */
    FH_ADD64,
    FH_SUB64,
    FH_AND64,
    FH_OR64,
    FH_XOR64,
    FH_SHL64_I,
    FH_SHR_U64_I,
    FH_ADDK64, /* plus the constant k: cvta between a window and its space (64-bit) */
    FH_MOV32,
    FH_MOV64,
    FH_MOVP,  /* mov: 32 bits zero-extended, 64 bits, a predicate */
    FH_BCAST, /* the constant k in every lane: a kernel parameter, a symbol's address */
    /* run_ahead only (they need the block): a uniform special register (& k), %tid.x
     * of a one-dimensional block (& k) */
    FH_SREG,
    FH_TIDX,
};

/* ------------------------------------------------------------ the kernels' semantics
 * Each full-warp kernel's semantics, written once (as Lua's luai_numadd): X(FH, N, EXPR)
 * where EXPR is the lane's 64-bit result from its N sources a, b, c (64-bit register
 * values: the 32-bit forms read the low halves), the shift amount sa and the constant k
 * (struct sim_fops). The same expression is the C of the interpreter's vector kernels
 * (exec_fh: a, b, c are sim_v64, two lanes at a time) and, through #EXPR, the text of the
 * translating tier's generated C (jit.c: a, b, c are uint64_t, one lane). The operations
 * that differ between the two are the primitives below, each with its vector form here
 * and its one-lane form in SIM_FH_SCALAR (the text jit.c puts before its functions):
 *   M32            the low 32 bits
 *   MULU(a, b)     the 64-bit product of the low halves, unsigned (mul.wide.u32)
 *   MULS(a, b)     ... signed (mul.wide.s32, PTX ISA §9.7.1.3)
 *   SRA32(a, s)    the low half shifted right arithmetically by s, zero-extended
 *   CMPU(a, OP, b) 1 or 0: the low halves compared unsigned (PTX ISA §9.7.6.2 setp)
 *   CMPS(a, OP, b) ... signed
 *   FOP(a, OP, b)  the f32 operation OP of the low halves, NaN canonical (canon32)
 *   FFMA(a, b, c)  fma.rn.f32 of the low halves (fused: one rounding), NaN canonical
 * FH_BCAST, FH_SREG and FH_TIDX have no row: they say where a value comes from (a
 * kernel parameter, a special register, the thread index), not how it is computed. */
#define SIM_FH_OPS(X)                                                                              \
    X(FH_SETP32_EQ, 2, CMPU(a, ==, b))                                                             \
    X(FH_SETP32_NE, 2, CMPU(a, !=, b))                                                             \
    X(FH_SETP32_LT_S, 2, CMPS(a, <, b))                                                            \
    X(FH_SETP32_LE_S, 2, CMPS(a, <=, b))                                                           \
    X(FH_SETP32_GT_S, 2, CMPS(a, >, b))                                                            \
    X(FH_SETP32_GE_S, 2, CMPS(a, >=, b))                                                           \
    X(FH_SETP32_LT_U, 2, CMPU(a, <, b))                                                            \
    X(FH_SETP32_LE_U, 2, CMPU(a, <=, b))                                                           \
    X(FH_SETP32_GT_U, 2, CMPU(a, >, b))                                                            \
    X(FH_SETP32_GE_U, 2, CMPU(a, >=, b))                                                           \
    X(FH_ADD32, 2, (a + b) & M32)                                                                  \
    X(FH_SUB32, 2, (a - b) & M32)                                                                  \
    X(FH_AND32, 2, a &b &M32)                                                                      \
    X(FH_OR32, 2, (a | b) & M32)                                                                   \
    X(FH_XOR32, 2, (a ^ b) & M32)                                                                  \
    X(FH_MULLO32, 2, MULU(a, b) & M32)                                                             \
    X(FH_MADLO32, 3, (MULU(a, b) + c) & M32)                                                       \
    X(FH_MULWIDE_U32, 2, MULU(a, b))                                                               \
    X(FH_MADWIDE_U32, 3, MULU(a, b) + c)                                                           \
    X(FH_MULWIDE_S32, 2, MULS(a, b))                                                               \
    X(FH_MADWIDE_S32, 3, MULS(a, b) + c)                                                           \
    X(FH_SHL32_I, 1, (a << sa) & M32)                                                              \
    X(FH_SHR_U32_I, 1, (a & M32) >> sa)                                                            \
    X(FH_SHR_S32_I, 1, SRA32(a, sa))                                                               \
    X(FH_ZERO, 0, a & 0)                                                                           \
    X(FH_FADD, 2, FOP(a, +, b))                                                                    \
    X(FH_FSUB, 2, FOP(a, -, b))                                                                    \
    X(FH_FMUL, 2, FOP(a, *, b))                                                                    \
    X(FH_FFMA, 3, FFMA(a, b, c))                                                                   \
    X(FH_ADD64, 2, a + b)                                                                          \
    X(FH_SUB64, 2, a - b)                                                                          \
    X(FH_AND64, 2, a &b)                                                                           \
    X(FH_OR64, 2, a | b)                                                                           \
    X(FH_XOR64, 2, a ^ b)                                                                          \
    X(FH_SHL64_I, 1, a << sa)                                                                      \
    X(FH_SHR_U64_I, 1, a >> sa)                                                                    \
    X(FH_ADDK64, 1, a + k)                                                                         \
    X(FH_MOV32, 1, a &M32)                                                                         \
    X(FH_MOV64, 1, a)                                                                              \
    X(FH_MOVP, 1, a & 1)

/* The primitives' one-lane forms, as the text of C (a, b, c uint64_t; f32 and canon32 as
 * exec.h's): what jit.c's generated source defines before its functions. */
#define SIM_FH_SCALAR                                                                              \
    "#define M32 UINT64_C(0xffffffff)\n"                                                           \
    "#define MULU(a, b) ((uint64_t)(uint32_t)(a) * (uint32_t)(b))\n"                               \
    "#define MULS(a, b) ((uint64_t)((int64_t)(int32_t)(a) * (int32_t)(b)))\n"                      \
    "#define SRA32(a, s) ((uint64_t)(uint32_t)((int32_t)(a) >> (s)))\n"                            \
    "#define CMPU(a, OP, b) ((uint64_t)((uint32_t)(a) OP (uint32_t)(b)))\n"                        \
    "#define CMPS(a, OP, b) ((uint64_t)((int32_t)(a) OP (int32_t)(b)))\n"                          \
    "#define FOP(a, OP, b) canon32(f32(a) OP f32(b))\n"                                            \
    "#define FFMA(a, b, c) canon32(__builtin_fmaf(f32(a), f32(b), f32(c)))\n"

/* The primitives' vector forms (two lanes of sim_v64 each; the 32-bit ones compute on
 * the vector's 32-bit elements and clear the high halves, see sim_v64 above). */
#define M32 0xffffffffu
#if defined(__x86_64__) && defined(__SSE2__)
/* pmuludq: SSE2 has no 64-bit multiply, and a 64-bit one would be three of these */
#define MULU(a, b) ((sim_v64)_mm_mul_epu32((__m128i)(a), (__m128i)(b)))
#else
#define MULU(a, b) (((a)&M32) * ((b)&M32))
#endif
#define MULS(a, b) vmulwide_s(a, b)
#define SRA32(a, s) ((sim_v64)((sim_vs32)(a) >> (int)(s)) & M32)
#define CMPU(a, OP, b) ((sim_v64)((sim_v32)((sim_v32)(a)OP(sim_v32)(b)) & (sim_v32){1, 0, 1, 0}))
#define CMPS(a, OP, b) ((sim_v64)((sim_v32)((sim_vs32)(a)OP(sim_vs32)(b)) & (sim_v32){1, 0, 1, 0}))
#define FOP(a, OP, b) ((sim_v64)vcanon32((sim_vf32)(a)OP(sim_vf32)(b)))
#define FFMA(a, b, c) vffma(a, b, c)

/* FFMA's vector form where exec_fh has no AVX kernel for it (full_handler then gives no
 * FH_FFMA; this keeps the row compiled): each lane with fmaf */
static inline sim_v64 vffma(sim_v64 a, sim_v64 b, sim_v64 c)
{
    const sim_v64 r = {canon32(fmaf(f32(a[0]), f32(b[0]), f32(c[0]))),
                       canon32(fmaf(f32(a[1]), f32(b[1]), f32(c[1])))};
    return r;
}

/* Runs full-warp kernel fh (full_handler; sa its shift amount, k its constant; not
 * FH_SREG or FH_TIDX, which run_ahead runs) on the operand rows
 * P1..P3 into the destination rows Dp and, for setp, D2 (its second destination, the
 * negation) or NULL: all 32 lanes, each row of SIM_FH_OPS two lanes at a time. */
static inline __attribute__((always_inline)) void exec_fh(unsigned fh, unsigned sa, uint64_t k,
                                                          uint64_t *Dp, uint64_t *D2,
                                                          const uint64_t *P1, const uint64_t *P2,
                                                          const uint64_t *P3)
{
    const sim_v64 z = {0, 0};
    (void)k;
#if SIM_X86_FMA
    if (fh == FH_FFMA) { /* the row's expression, four lanes at a time with AVX and FMA */
        ffma_full_fma3(Dp, P1, P2, P3);
        return;
    }
#endif
    switch (fh) {
#define FH_CASE(H, N, EXPR)                                                                        \
    case H:                                                                                        \
        VPAIRS(const sim_v64 a = (N) >= 1 ? vld64(P1 + l) : z;                                     \
               const sim_v64 b = (N) >= 2 ? vld64(P2 + l) : z;                                     \
               const sim_v64 c = (N) >= 3 ? vld64(P3 + l) : z; (void)a; (void)b; (void)c;          \
               vst64(Dp + l, z + (EXPR)));                                                         \
        break;
        SIM_FH_OPS(FH_CASE)
#undef FH_CASE
    case FH_BCAST: VPAIRS(vst64(Dp + l, z + k)); return;
    default: return;
    }
    /* setp: the negation, a 0 or 1 in each low half */
    if (D2)
        VPAIRS(vst64(D2 + l, vld64(Dp + l) ^ 1));
}
#undef M32
#undef MULU
#undef MULS
#undef SRA32
#undef CMPU
#undef CMPS
#undef FOP
#undef FFMA

/* Operand row src (struct sim_fops) of a warp whose registers start at W. */
static inline const uint64_t *fop_row(const sim_ctx *c, const uint64_t *W, uint32_t src)
{
    return (src & SIM_FOP_IMM) ? c->imm_rows + (src & ~SIM_FOP_IMM) : W + src;
}

/* Row entries V[0..n) (n a multiple of 4) from the n 32-bit values at src, zero-extended
 * (ld of .u32/.b32/.f32 into 64-bit register slots). */
static inline void rows_from_u32(uint64_t *V, const unsigned char *src, unsigned n)
{
#if defined(__x86_64__) && defined(__SSE2__)
    /* four lanes per step (SSE2 punpckldq, punpckhdq) */
    const __m128i z = _mm_setzero_si128();
    for (unsigned l = 0; l < n; l += 4) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + 4 * l));
        _mm_storeu_si128((__m128i *)(void *)(V + l), _mm_unpacklo_epi32(v, z));
        _mm_storeu_si128((__m128i *)(void *)(V + l + 2), _mm_unpackhi_epi32(v, z));
    }
#else
    for (unsigned l = 0; l < n; l++) {
        uint32_t u;
        memcpy(&u, src + 4 * l, 4);
        V[l] = u;
    }
#endif
}

/* The low halves of a full warp's row V as 32 words at dst (a store's values) */
static inline void u32_from_rows(unsigned char *dst, const uint64_t *V)
{
#if defined(__x86_64__) && defined(__SSE2__)
    /* four lanes per step: their low halves side by side (SSE2 shufps) */
    for (unsigned l = 0; l < 32; l += 4) {
        const __m128 a = _mm_loadu_ps((const float *)(const void *)(V + l));
        const __m128 b = _mm_loadu_ps((const float *)(const void *)(V + l + 2));
        _mm_storeu_ps((float *)(void *)(dst + 4 * l),
                      _mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
    }
#else
    uint32_t v32[32];
#if SIM_HAVE_CONVERTVECTOR
    VPAIRS(const sim_v32x2 h = __builtin_convertvector(vld64(V + l), sim_v32x2);
           memcpy(v32 + l, &h, sizeof h));
#else
    for (unsigned l = 0; l < 32; l++)
        v32[l] = (uint32_t)V[l];
#endif
    memcpy(dst, v32, sizeof v32);
#endif
}

/* A full warp's FK_LDG, FK_STG, FK_LDS or FK_STS (fk) in (warp registers W, first thread
 * base): when its 32 accesses are unit-stride and sim_global_row's
 * or sim_shared_row's case, runs it (a load's values zero- or sign-extended into the
 * value row, as load_val does) and returns 1; returns 0, having changed nothing,
 * otherwise (exec_fast's FK_LD and FK_ST path then runs it). */
static __attribute__((noinline, unused)) int mem_row(sim_ctx *c, const ptx_insn *in, unsigned fk,
                                                     uint64_t *W, unsigned base)
{
    const int st = fk == FK_STG || fk == FK_STS;
    const ptx_operand *const ao = &in->o[st ? 0 : 1];
    const unsigned bytes = PTX_TSIZE(in->type);
    const uint64_t *const A = W + ((size_t)ao->reg << 5);
    uint64_t *const V = W + ((size_t)in->o[st ? 1 : 0].reg << 5);
    if (!row_unit_stride(A, bytes))
        return 0;
    const uint64_t a = A[0] + ao->imm;
    unsigned char *const p = fk == FK_LDG || fk == FK_STG
                                 ? sim_global_row(c, base, a, bytes, st, in)
                                 : sim_shared_row(c, base, a, st, in);
    if (!p)
        return 0;
    if (bytes == 8) {
        st ? memcpy(p, V, 32 * 8) : memcpy(V, p, 32 * 8);
    } else if (st) {
        u32_from_rows(p, V);
    } else if (PTX_TCLASS(in->type) != PTX_TC_S) {
        rows_from_u32(V, p, 32);
    } else {
        for (unsigned l = 0; l < 32; l++) {
            int32_t v;
            memcpy(&v, p + 4 * l, 4);
            V[l] = (uint64_t)(int64_t)v;
        }
    }
    return 1;
}

/* Runs an instruction of fast-path kind c->fast[pc] (lanes em) when
 * every lane of the warp is in the kernel's own frame (no device-function call under
 * way, the common case): the warp's registers are then one lane-major block, operand
 * k is a pointer P[k] to 32 lane values (a register's row, or the immediate repeated),
 * and each kind is one loop over the lanes with its switch outside. Otherwise, and for
 * the forms found uncommon only here, sim_exec_insn runs it (same arguments). */
static inline __attribute__((always_inline)) void exec_fast(sim_ctx *c, const ptx_insn *in,
                                                            unsigned w, unsigned base, uint32_t em,
                                                            uint32_t pc, uint32_t mask)
{
    if (w >= SIM_ITS_WARPS || c->w_called[w]) {
        sim_exec_insn(c, in, w, base, em, pc, mask);
        return;
    }
    uint64_t *const W = c->regs + (((size_t)w * c->regcap) << 5);
    const unsigned fk = c->fast[pc];
    const unsigned sz = PTX_TSIZE(in->type);
    const uint64_t dm = sz >= 8 ? UINT64_MAX : (1ull << (sz * 8)) - 1;
    const int pred = PTX_TCLASS(in->type) == PTX_TC_PRED;
    uint64_t *const Dp = W + ((size_t)in->o[0].reg << 5);
    const uint64_t *P[4] = {NULL, NULL, NULL, NULL};
    uint64_t imm[3][32];
    if (fk < FK_LD && c->fops) { /* decoded once per launch (sim_fops_build) */
        const struct sim_fops *F = &c->fops[pc];
        for (unsigned k = 1; k < 4; k++)
            P[k] = fop_row(c, W, F->src[k - 1]);
        if (em == UINT32_MAX && F->fh) {
            exec_fh(F->fh, F->sa, F->k, Dp, F->d2 != UINT32_MAX ? W + F->d2 : NULL, P[1], P[2],
                    P[3]);
            return;
        }
    } else if (fk < FK_LD) { /* no table (out of memory): expanded per issue */
        for (unsigned k = 1; k < in->nopnd && k < 4; k++) {
            const ptx_operand *o = &in->o[k];
            if (o->kind == PTX_OPK_REG) {
                P[k] = W + ((size_t)o->reg << 5);
            } else {
                const sim_v64 iv = {o->imm, o->imm};
                VPAIRS(vst64(imm[k - 1] + l, iv));
                P[k] = imm[k - 1];
            }
        }
    }
    const uint64_t *const P1 = P[1], *const P2 = P[2], *const P3 = P[3];
    const int full = em == UINT32_MAX;
/* LANES(stmt): stmt for each lane l of em; the full warp as a plain counted loop */
#define LANES(STMT)                                                                                \
    do {                                                                                           \
        if (full) {                                                                                \
            for (unsigned l = 0; l < 32; l++) {                                                    \
                STMT;                                                                              \
            }                                                                                      \
        } else {                                                                                   \
            for (uint32_t m_ = em; m_; m_ &= m_ - 1) {                                             \
                const unsigned l = (unsigned)__builtin_ctz(m_);                                    \
                STMT;                                                                              \
            }                                                                                      \
        }                                                                                          \
    } while (0)
/* LANES_UNROLLED(stmt): LANES with the full warp's loop unrolled (the per-lane loads and
 * stores through ptr[] of the memory kinds) */
#define LANES_UNROLLED(STMT)                                                                       \
    do {                                                                                           \
        if (full) {                                                                                \
            _Pragma("GCC unroll 32") for (unsigned l = 0; l < 32; l++)                             \
            {                                                                                      \
                STMT;                                                                              \
            }                                                                                      \
        } else {                                                                                   \
            LANES(STMT);                                                                           \
        }                                                                                          \
    } while (0)
/* LANESV(vstmt, stmt): vstmt for each pair of lanes l, l + 1 of the full warp (sim_v64
 * vectors), else stmt for each lane l of em */
#define LANESV(VSTMT, STMT)                                                                        \
    do {                                                                                           \
        if (full)                                                                                  \
            VPAIRS(VSTMT);                                                                         \
        else                                                                                       \
            LANES(STMT);                                                                           \
    } while (0)
    switch (fk) {
#define FAST_BIN(K, EXPR)                                                                          \
    case K: LANES(const uint64_t a = P1[l]; const uint64_t b = P2[l]; Dp[l] = (EXPR)&dm); break;
        FAST_BIN(FK_ADD, a + b)
        FAST_BIN(FK_SUB, a - b)
        FAST_BIN(FK_AND, a & b)
        FAST_BIN(FK_OR, a | b)
        FAST_BIN(FK_XOR, a ^ b)
        FAST_BIN(FK_MULLO, a * b)
    /* .wide: a 64-bit result, not masked to the source size */
    case FK_MULWIDE_U: LANES(Dp[l] = (uint64_t)(uint32_t)P1[l] * (uint32_t)P2[l]); break;
    case FK_MULWIDE_S:
        LANES(Dp[l] = (uint64_t)((int64_t)(int32_t)P1[l] * (int32_t)P2[l]));
        break;
        /* shift amounts over the width give 0 (shr.s: the sign), PTX ISA §9.7.7 */
        FAST_BIN(FK_SHL, (b & 0xffffffffu) >= sz * 8 ? 0 : (a & dm) << (b & 0xffffffffu))
        FAST_BIN(FK_SHR_U, (b & 0xffffffffu) >= sz * 8 ? 0 : (a & dm) >> (b & 0xffffffffu))
        FAST_BIN(FK_SHR_S, (uint64_t)((b & 0xffffffffu) >= sz * 8 ? (sx(a, sz) < 0 ? -1 : 0)
                                                                  : sx(a, sz) >> (b & 0xffffffffu)))
#undef FAST_BIN
    case FK_MADLO: LANES(Dp[l] = (P1[l] * P2[l] + P3[l]) & dm); break;
    case FK_MADWIDE_U: LANES(Dp[l] = (uint64_t)(uint32_t)P1[l] * (uint32_t)P2[l] + P3[l]); break;
    case FK_MADWIDE_S:
        LANES(Dp[l] = (uint64_t)((int64_t)(int32_t)P1[l] * (int32_t)P2[l]) + P3[l]);
        break;
    case FK_MOV:
        if (pred)
            LANESV(vst64(Dp + l, vld64(P1 + l) & 1), Dp[l] = P1[l] & 1);
        else
            LANESV(vst64(Dp + l, vld64(P1 + l) & dm), Dp[l] = P1[l] & dm);
        break;
    case FK_SELP:
        LANESV(const sim_v64 sel = -(vld64(P3 + l) & 1);
               vst64(Dp + l, ((vld64(P1 + l) & sel) | (vld64(P2 + l) & ~sel)) & dm),
               Dp[l] = ((P3[l] & 1) ? P1[l] : P2[l]) & dm);
        break;
    case FK_CVT_II: { /* PTX ISA §9.7.9.21 cvt between integer types, no .sat */
        const unsigned ssz = PTX_TSIZE(in->type2);
        if (PTX_TCLASS(in->type2) == PTX_TC_S)
            LANES(Dp[l] = (uint64_t)sx(P1[l], ssz) & dm);
        else
            LANES(Dp[l] = zx(P1[l], ssz) & dm);
        break;
    }
    case FK_SETP_U:
    case FK_SETP_S:
    case FK_SETP_F32: { /* PTX ISA §9.7.6.2 setp, as sim_compare() */
        const unsigned ssz = PTX_TSIZE(in->type2);
        const int cmp = in->cmp;
        uint64_t *const D2 =
            in->o[0].sub == 2 && in->o[0].imm != PTX_NOREG ? W + ((size_t)in->o[0].imm << 5) : NULL;
        uint64_t r[32];
        if (fk == FK_SETP_F32) {
            switch (cmp) {
#define FCMP(C, E)                                                                                 \
    case C:                                                                                        \
        LANES(const float a = f32(P1[l]); const float b = f32(P2[l]);                              \
              const int un = a != a || b != b; (void)un; r[l] = (uint64_t)(E));                    \
        break;
                FCMP(PTX_CMP_EQ, !un && a == b)
                FCMP(PTX_CMP_NE, !un && a != b)
                FCMP(PTX_CMP_LT, !un && a < b)
                FCMP(PTX_CMP_LE, !un && a <= b)
                FCMP(PTX_CMP_GT, !un && a > b)
                FCMP(PTX_CMP_GE, !un && a >= b)
                FCMP(PTX_CMP_EQU, un || a == b)
                FCMP(PTX_CMP_NEU, un || a != b)
                FCMP(PTX_CMP_LTU, un || a < b)
                FCMP(PTX_CMP_LEU, un || a <= b)
                FCMP(PTX_CMP_GTU, un || a > b)
                FCMP(PTX_CMP_GEU, un || a >= b)
                FCMP(PTX_CMP_NUM, !un)
            default: FCMP(PTX_CMP_NAN, un)
#undef FCMP
            }
        } else if (fk == FK_SETP_S) {
            switch (cmp) {
#define SCMP(C, E)                                                                                 \
    case C:                                                                                        \
        LANES(const int64_t a = sx(P1[l], ssz); const int64_t b = sx(P2[l], ssz);                  \
              r[l] = (uint64_t)(E));                                                               \
        break;
                SCMP(PTX_CMP_EQ, a == b)
                SCMP(PTX_CMP_NE, a != b)
                SCMP(PTX_CMP_LT, a < b)
                SCMP(PTX_CMP_LE, a <= b)
                SCMP(PTX_CMP_GT, a > b)
            default: SCMP(PTX_CMP_GE, a >= b)
#undef SCMP
            }
        } else {
            switch (cmp) {
#define UCMP(C, E)                                                                                 \
    case C:                                                                                        \
        LANES(const uint64_t a = zx(P1[l], ssz); const uint64_t b = zx(P2[l], ssz);                \
              r[l] = (uint64_t)(E));                                                               \
        break;
                UCMP(PTX_CMP_EQ, a == b)
                UCMP(PTX_CMP_NE, a != b)
            case PTX_CMP_LO: UCMP(PTX_CMP_LT, a < b)
            case PTX_CMP_LS: UCMP(PTX_CMP_LE, a <= b)
            case PTX_CMP_HI: UCMP(PTX_CMP_GT, a > b)
            default: UCMP(PTX_CMP_GE, a >= b) /* GE, HS */
#undef UCMP
            }
        }
        LANESV(vst64(Dp + l, vld64(r + l)), Dp[l] = r[l]);
        if (D2)
            LANESV(vst64(D2 + l, vld64(r + l) ^ 1), D2[l] = !r[l]);
        break;
    }
    /* f32 with the default rounding (PTX ISA §9.7.3): NaN results canonical (canon32) */
    case FK_FADD: LANES(Dp[l] = canon32(f32(P1[l]) + f32(P2[l]))); break;
    case FK_FSUB: LANES(Dp[l] = canon32(f32(P1[l]) - f32(P2[l]))); break;
    case FK_FMUL: LANES(Dp[l] = canon32(f32(P1[l]) * f32(P2[l]))); break;
    case FK_FFMA:
#if SIM_X86_FMA
        if (full && have_fma()) {
            ffma_full_fma3(Dp, P1, P2, P3);
            break;
        }
#endif
        LANES(Dp[l] = canon32(fmaf(f32(P1[l]), f32(P2[l]), f32(P3[l]))));
        break;
    case FK_MOV_SYM: { /* one address for the warp unless it is in a thread's frame */
        const int sk = c->m->syms[in->o[1].sym].kind;
        if (sk == PTX_SYM_LOCAL || sk == PTX_SYM_FPARAM) {
            sim_exec_insn(c, in, w, base, em, pc, mask);
            break;
        }
        const uint64_t v = sym_addr(c, in->o[1].sym, base) & dm;
        LANESV(vst64(Dp + l, (sim_v64){v, v}), Dp[l] = v);
        break;
    }
    case FK_BRA: /* as sim_exec_insn's bra (PTX ISA §9.7.8.x bra) */
        if (full)
            pcs_set(c->pc + base, (uint32_t)in->target);
        else
            LANES(c->pc[base + l] = (uint32_t)in->target);
        if ((uint32_t)in->target <= pc)
            sim_back_edge(c, w, pc, em);
        break;
    case FK_EXIT: /* exit, or ret from the kernel itself (sim_do_ret at depth 0) */
        if (full)
            memset(c->state + base, SIM_T_EXIT, 32);
        else
            LANES(c->state[base + l] = SIM_T_EXIT);
        c->nexited += sim_pop32(em);
        break;
    case FK_CVTA: { /* as sim_exec_insn's cvta */
        const uint64_t win = in->space == SIM_SPACE_SHARED  ? SIM_SHARED_WIN
                             : in->space == SIM_SPACE_LOCAL ? SIM_LOCAL_WIN
                                                            : 0;
        if (in->flags & PTX_F_TO)
            LANESV(vst64(Dp + l, (vld64(P1 + l) - win) & dm), Dp[l] = (P1[l] - win) & dm);
        else
            LANESV(vst64(Dp + l, (vld64(P1 + l) + win) & dm), Dp[l] = (P1[l] + win) & dm);
        break;
    }
    case FK_MOV_SREG: { /* special registers, PTX ISA §10 (sreg) */
        const unsigned id = in->o[1].sub;
        const int per_lane = !sreg_block_uniform(id);
        const uint64_t vm = pred ? 1 : dm;
        if (id == PTX_SREG_TID_X && c->block[0] == c->nthreads) {
            /* one-dimensional block: the thread index */
            if (full)
                tidx_row(Dp, base, vm);
            else
                LANES(Dp[l] = (base + l) & vm);
        } else if (per_lane) {
            LANES(Dp[l] = sreg(c, id, base + l) & vm);
        } else {
            const uint64_t v = sreg(c, id, base) & vm;
            LANESV(vst64(Dp + l, (sim_v64){v, v}), Dp[l] = v);
        }
        break;
    }
    case FK_LDG:
    case FK_STG:
    case FK_LDS:
    case FK_STS:
        if (em == UINT32_MAX) {
            /* lanes 0 and 31 first: other patterns (half-warp rows, broadcasts, columns)
             * fail here, without a call */
            const int st = fk == FK_STG || fk == FK_STS;
            const uint64_t *const A = W + ((size_t)in->o[st ? 0 : 1].reg << 5);
            if (A[31] == A[0] + 31 * sz && mem_row(c, in, fk, W, base))
                break; /* a full warp's unit-stride request, done from its rows */
        }
        /* fall through */
    case FK_LD:
    case FK_ST: {
        const int st = fk == FK_ST || fk == FK_STG || fk == FK_STS;
        const ptx_operand *ao = &in->o[st ? 0 : 1], *vo = &in->o[st ? 1 : 0];
        const unsigned n = in->vec, bytes = sz * n;
        const int is_s = PTX_TCLASS(in->type) == PTX_TC_S;
        uint64_t off = ao->imm;
        if (ao->sym >= 0) {
            const int sk = c->m->syms[ao->sym].kind;
            if (sk == PTX_SYM_LOCAL || sk == PTX_SYM_FPARAM)
                goto general; /* per-thread frames */
            off += sym_addr(c, ao->sym, base);
        }
        unsigned char *ptr[32];
        int mr = 1; /* sim_mem_warp: 2 one range, 3 and 4 two half-warp patterns */
        if (in->space == SIM_SPACE_PARAM) {
            /* ld.param of a kernel parameter: one value for the warp */
            if (ao->reg != PTX_NOREG)
                goto general;
            unsigned char *p =
                sim_mem(c, base + (unsigned)__builtin_ctz(em), in->space, off, bytes, 0, in);
            if (!p)
                return;
            if (vo->kind != PTX_OPK_VEC) {
                const uint64_t v = load_val(p, sz, is_s);
                LANESV(vst64(Dp + l, (sim_v64){v, v}), Dp[l] = v);
                break;
            }
            LANES(ptr[l] = p);
        } else {
            uint64_t addr[32];
            if (ao->reg != PTX_NOREG) {
                const uint64_t *const A = W + ((size_t)ao->reg << 5);
                LANESV(vst64(addr + l, vld64(A + l) + off), addr[l] = off + A[l]);
            } else {
                LANESV(vst64(addr + l, (sim_v64){off, off}), addr[l] = off);
            }
            mr = sim_mem_warp(c, base, em, in->space, addr, bytes, st, in, ptr);
            if (!mr)
                goto general;
        }
        if (mr == 2 && vo->kind == PTX_OPK_REG && (sz == 8 || (sz == 4 && (st || !is_s)))) {
            /* the 32 lanes' values are one range of memory: whole rows */
            uint64_t *const V = W + ((size_t)vo->reg << 5);
            if (sz == 8 && st) {
                memcpy(ptr[0], V, 32 * 8);
            } else if (sz == 8) {
                memcpy(V, ptr[0], 32 * 8);
            } else if (st) {
                u32_from_rows(ptr[0], V);
            } else {
                rows_from_u32(V, ptr[0], 32);
            }
            break;
        }
        if (mr >= 3 && !st && vo->kind == PTX_OPK_REG && sz == 4 && !is_s) {
            /* each half-warp's values one range (3) or one word (4): two half rows */
            uint64_t *const V = W + ((size_t)vo->reg << 5);
            if (mr == 3) {
                rows_from_u32(V, ptr[0], 16);
                rows_from_u32(V + 16, ptr[16], 16);
            } else {
                uint32_t u, u2;
                memcpy(&u, ptr[0], 4);
                memcpy(&u2, ptr[16], 4);
                const sim_v64 a = {u, u}, b = {u2, u2};
                _Pragma("GCC unroll 8") for (unsigned l = 0; l < 16; l += 2)
                {
                    vst64(V + l, a);
                    vst64(V + 16 + l, b);
                }
            }
            break;
        }
        if (mr == 2 && vo->kind == PTX_OPK_VEC && sz == 4 && (st || !is_s)) {
            /* a full warp's unit-stride vector of words (ld/st .v2/.v4 .b32): lane by
             * lane, each lane's n words in one pass over the range, not n strided ones */
            uint64_t *V[4];
            for (unsigned i = 0; i < n; i++) {
                const uint16_t rg = vec_reg(vo, i);
                V[i] = rg != PTX_NOREG ? W + ((size_t)rg << 5) : NULL;
            }
            unsigned char *p = ptr[0];
            for (unsigned l = 0; l < 32; l++, p += bytes)
                for (unsigned i = 0; i < n; i++) {
                    uint32_t u;
                    if (st) {
                        u = V[i] ? (uint32_t)V[i][l] : 0;
                        memcpy(p + 4 * i, &u, 4);
                    } else if (V[i]) {
                        memcpy(&u, p + 4 * i, 4);
                        V[i][l] = u;
                    }
                }
            break;
        }
        if (mr == 2) /* sim_mem_warp gave lane 0's pointer only */
            for (unsigned l = 1; l < 32; l++)
                ptr[l] = ptr[0] + (size_t)l * bytes;
        if (vo->kind == PTX_OPK_VEC) {
            for (unsigned i = 0; i < n; i++) {
                const uint16_t rg = vec_reg(vo, i);
                uint64_t *const V = rg != PTX_NOREG ? W + ((size_t)rg << 5) : NULL;
                if (st && rg != PTX_NOREG) {
                    LANES(memcpy(ptr[l] + i * sz, &V[l], sz));
                } else if (st) {
                    const uint64_t z = 0;
                    LANES(memcpy(ptr[l] + i * sz, &z, sz));
                } else if (rg != PTX_NOREG) {
                    LANES(V[l] = load_val(ptr[l] + i * sz, sz, is_s));
                }
            }
        } else if (st && vo->kind == PTX_OPK_REG) {
            const uint64_t *const V = W + ((size_t)vo->reg << 5);
            if (sz == 4)
                LANES_UNROLLED(const uint32_t v = (uint32_t)V[l]; memcpy(ptr[l], &v, 4));
            else
                LANES(memcpy(ptr[l], &V[l], sz));
        } else if (st) {
            const uint64_t v = vo->imm;
            LANES(memcpy(ptr[l], &v, sz));
        } else if (sz == 4 && !is_s) {
            LANES_UNROLLED(uint32_t v; memcpy(&v, ptr[l], 4); Dp[l] = v);
        } else if (sz == 8) {
            LANES_UNROLLED(uint64_t v; memcpy(&v, ptr[l], 8); Dp[l] = v);
        } else {
            LANES(Dp[l] = load_val(ptr[l], sz, is_s));
        }
        break;
    general:
        sim_exec_insn(c, in, w, base, em, pc, mask);
        break;
    }
    default: break;
    }
#undef LANESV
#undef LANES_UNROLLED
#undef LANES
}

#endif
