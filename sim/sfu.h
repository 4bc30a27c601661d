/* sfu.h — the special-function unit's .approx results bit for bit as an sm_90 GPU
 * (measured on an NVIDIA H200) gives them, for the forms whose hardware results are
 * modelled exactly: rcp, rsqrt, sqrt, lg2 and ex2 .approx.f32, with and without .ftz
 * (PTX ISA §9.7.3.13 rcp.approx, §9.7.3.15 sqrt, §9.7.3.16 rsqrt, §9.7.3.20 lg2,
 * §9.7.3.21 ex2), and the f64 forms of rcp and rsqrt built on the same tables.
 *
 * What the hardware does was measured, not guessed (tools/sfu_dump.cu, tools/sfu_tables.c,
 * docs/architecture.md "The special-function unit"): the multi-function unit's result
 * depends on the input's mantissa alone, the exponent only scaling it (rcp, and rsqrt and
 * sqrt by the exponent's parity: checked on the GPU for every positive normal input), and
 * ex2 on the input as a fixed-point number with 23 fraction bits, its magnitude truncated
 * and, for a negative input, the fraction's bits inverted (one's complement). lg2 is
 * the unit's own algorithm, recovered whole: a quadratic in fixed point per 64th of the
 * mantissa (sfu_lg2_segment), the exponent added, the sum truncated. The
 * mantissa tables of rcp, rsqrt, sqrt and ex2 are each a correctly rounded reference plus a 2-bit correction per
 * entry (-2..+1 ulp), kept zlib-compressed in sim/sfu/ and inflated on first use. The
 * forms without .ftz are the instruction sequences ptxas emits around the unit (scaling
 * subnormal and huge inputs), computed with the same f32 operations.
 *
 * The f16/bf16 forms of ex2 and tanh follow below them, then sin and cos .approx.f32:
 * a measured quarter-wave table indexed by the argument's phase, and tanh.approx.f32:
 * lg2's kind of quadratic per segment, recovered.
 *
 * All are thread-safe (the tables are inflated once, under pthread_once). */
#ifndef GL_SIM_SFU_H
#define GL_SIM_SFU_H

#include <stddef.h>
#include <stdint.h>

/* rcp.approx.f32 of x; ftz: the .ftz form (x and the result flushed to signed zero). */
float sfu_rcp(float x, int ftz);

/* rsqrt.approx.f32 of x (a negative x or NaN: the canonical NaN 0x7fffffff). */
float sfu_rsqrt(float x, int ftz);

/* sqrt.approx.f32 of x (a negative x or NaN: the canonical NaN). */
float sfu_sqrt(float x, int ftz);

/* lg2.approx.f32 of x: log2(x) (lg2(+-0) = -inf, a negative x or NaN: the canonical NaN,
 * lg2(+inf) = +inf, lg2(1) = +0). */
float sfu_lg2(float x, int ftz);

/* ex2.approx.f32 of x: 2^x (ex2(-inf) = +0, ex2(+inf) = +inf, ex2(+-0) = 1). */
float sfu_ex2(float x, int ftz);

/* rcp.approx.ftz.f64 of x (PTX ISA §9.7.3.14): MUFU.RCP64H alone, which reads x's high
 * word only and gives a result whose low word is 0: the f32 unit's reciprocal of the
 * same top 20 mantissa bits, truncated to 20 (measured on an H200, every high word). */
double sfu_rcp_f64(double x);

/* rsqrt.approx.f64 (ftz 0) and rsqrt.approx.ftz.f64 (ftz 1) of x (PTX ISA §9.7.3.16,
 * §9.7.3.17):
 * the .ftz form is MUFU.RSQ64H alone (as rcp's); the other is ptxas's sequence, the unit
 * then one refinement step in f64 (nearly full precision), with its slow path: +-0 gives
 * +-inf, a NaN the NaN made quiet, a negative number 0xfff8000000000000, +inf +0, a
 * subnormal x scaled by 2^54 (the result by 2^27). */
double sfu_rsqrt_f64(double x, int ftz);

/* The f16 and bf16 forms (PTX ISA §9.7.4.9 tanh, §9.7.4.10 ex2), on one half's bits
 * (an .x2 form is two of them): every NaN input gives the canonical NaN 0x7fff, and the
 * result is the f32 unit's, its mantissa truncated (rounded toward zero), measured on
 * every one of the 2^16 inputs of each (tools/sfu_dump.cu).
 *
 * ex2.approx.f16 of a: MUFU.EX2 (the .ftz.f32 form) of a as an f32, truncated to f16,
 * a subnormal result kept and an overflow (2^16 and up) infinity. */
unsigned short sfu_ex2_f16(unsigned short a);

/* ex2.approx.ftz.bf16 of a: MUFU.EX2 of a as an f32 (a subnormal a flushed: 1), the
 * result's low 16 bits dropped. */
unsigned short sfu_ex2_bf16(unsigned short a);

/* tanh.approx.f16 and tanh.approx.bf16 of a: odd (tanh(-a) = -tanh(a)); the results of
 * the non-negative inputs up to infinity are the GPU's own, from a table (sim/sfu/
 * tanh_f16.z, tanh_bf16.z: each result's step from the one before, one byte each). They
 * are sfu_tanh's (tanh.approx.f32's) truncated on every input of [2^-5, 16). */
unsigned short sfu_tanh_f16(unsigned short a);
unsigned short sfu_tanh_bf16(unsigned short a);

/* lg2's polynomial on one 64th of the mantissa, m = 1 + g/64 + t 2^-23 (g its top 6
 * bits, t its low 17): V = floor((c0 + c1 t - 16 c2 sq(t)) / 32), log2(m) in units of
 * 2^-36, where c0, c1 t and 16 c2 sq(t) are in units of 2^-41 and sq(t) is t^2 / 2^19
 * from a truncated squarer (the partial products of weight 2^19 and up only). */
typedef struct sfu_lg2_segment {
    long long c0; /* log2 at the segment's start, 2^-41 units (biased: about 2^-23) */
    int c1;       /* slope, 2^-41 per 2^-23 of m (19 bits) */
    int c2;       /* curvature, 2^-37 per 2^19 of t^2 (10 bits) */
} sfu_lg2_segment;

/* The segments the simulator uses (sim/sfu/lg2.h, written by tools/sfu_tables.c from a
 * GPU's results). */
extern const sfu_lg2_segment sfu_lg2_segments[64];

/* The truncated squarer of lg2's t (t < 2^17): the partial products of t^2 of weight
 * 2^19 and up (t_j t_j 2^2j, and 2 t_i t_j 2^(i+j) for i < j), summed, in units of 2^19
 * (so at most t^2 / 2^19). */
unsigned sfu_lg2_square(unsigned t);

/* The unit's lg2 (lg2.approx.ftz.f32) of the f32 with bits x, its result's bits, with
 * the 64 segments seg (sfu_lg2_segments, or a fit's to check it): for x = 2^e m (a
 * positive normal x, not 1), W = e 2^36 + V(m); W >= 0: W 2^-36 truncated to f32;
 * W < 0: -(-W - 1) 2^-36 truncated (one's complement, so lg2(1/4) is -2 + 2^-23).
 * x = 1: +0. */
unsigned sfu_lg2_unit(const sfu_lg2_segment seg[64], unsigned x);

/* sin.approx.f32 and cos.approx.f32 of x, with or without .ftz (PTX ISA §9.7.3.18 sin,
 * §9.7.3.19 cos; the forms give the same bits). ptxas emits FMUL.RZ t = x 0x3e22f983
 * (1/(2 pi) as an f32, rounded toward zero) and MUFU.SIN or MUFU.COS of t; the unit's
 * result depends on t's phase alone, q = frac(|t|) in 2^-25 turns, truncated
 * (sfu_sin_phase): sin is the quarter-wave table's entry (sfu_sin_entry) of q's low 23
 * bits, inverted (one's complement) in the odd quarters, negated in the second
 * half-wave and for x < 0; cos is sin's rule at q + 2^23, never negated for x < 0. A
 * subnormal x has phase 0 (sin +-0, cos 1), flushed or not, and so has |t| >= 2^23 (|x|
 * above about 5.3e7); infinities and NaN give the canonical NaN 0x7fffffff. Measured on
 * whole binades of inputs (docs/architecture.md "The special-function unit"). */
float sfu_sin(float x);
float sfu_cos(float x);

/* tanh.approx.f32 of x (PTX ISA §9.7.3.22; sm_90: MUFU.TANH alone), the unit's algorithm
 * recovered from an H200's results: odd (tanh(-x) = -tanh(x)); |x| < 2^-8 gives x (zero
 * and subnormals included); |x| >= 8 (infinity too) gives 1; a NaN the canonical NaN.
 * In the binades 2^-8 .. 2^2 a quadratic per segment, as lg2's: x's mantissa keeps its
 * top 17 (2^-8 .. 2^-6), 18 (2^-5, 2^-4), 19 (2^-3 .. 2^-1), 20 (2^0, 2^2) or 21 (2^1)
 * bits, the lowest 17 of them the offset t, the others the segment (1, 2, 4, 8 or 16 per
 * binade, 51 in all); V = c0 + c1 t - c2 sq(t) in units of 2^-39 with lg2's truncated
 * squarer (sfu_lg2_square), truncated to f32 (docs/architecture.md "The
 * special-function unit"). */
float sfu_tanh(float x);

/* Entries of the quarter-wave table (sim/sfu/sin.z), and its coded stream's bytes at most
 * (one per entry and 4 more per escape, 2^14 escapes at most: tools/sfu_tables.c refuses
 * more). */
#define SFU_SIN_ENTRIES (1u << 23)
#define SFU_SIN_CODE_MAX (SFU_SIN_ENTRIES + 4u * 16384u)

/* The phase of x's bits as the unit takes it: frac(RZ(|x| 0x3e22f983)) 2^25, truncated
 * (0 .. 2^25 - 1). */
unsigned sfu_sin_phase(uint32_t x);

/* The hardware's sine at phase k 2^-25 turns, k < 2^23 (f32 bits, measured: 0 at k = 0,
 * 1.0 at k = 2^23 - 1); without its table (damaged, said once on stderr) the sine in
 * double. */
unsigned sfu_sin_entry(unsigned k);

/* Decodes sim/sfu/sin.z's inflated stream (n bytes, the coding sfu.c describes) into
 * the SFU_SIN_ENTRIES entries of out. 0, or -1 when it is malformed or of another
 * length. */
int sfu_sin_decode(const unsigned char *code, size_t n, uint32_t *out);

/* The tables (tools/sfu_tables.c writes them from a GPU's results). */
typedef enum sfu_table_id {
    SFU_RCP,   /* 2^23 entries: rcp of 1 + k 2^-23, in (0.5, 1] */
    SFU_RSQRT, /* 2^24 entries: rsqrt of the f32 with bits 0x3f800000 + k, in [1, 4) */
    SFU_SQRT,  /* 2^24 entries: sqrt of the same inputs */
    SFU_EX2,   /* 2^23 entries: 2^(k 2^-23), in [1, 2) */
    SFU_NTABLES
} sfu_table_id;

/* The half forms' tables: the results of inputs 0 (+0) to the infinity's bits. */
typedef enum sfu_half_table_id {
    SFU_TANH_F16,  /* 0x7c01 entries: tanh.approx.f16 of 0x0000 .. 0x7c00 */
    SFU_TANH_BF16, /* 0x7f81 entries: tanh.approx.bf16 of 0x0000 .. 0x7f80 */
    SFU_NHALF_TABLES
} sfu_half_table_id;

/* Entries of half table t. */
unsigned sfu_half_table_size(sfu_half_table_id t);

/* Entries of table t. */
unsigned sfu_table_size(sfu_table_id t);

/* The correctly rounded reference of entry k of table t (f32 bits), computed with IEEE
 * double operations only, so that every machine gets the same bits: the hardware's
 * entry is this plus a correction of -2..+1 (tools/sfu_tables.c encodes the corrections,
 * sfu.c adds them back). */
unsigned sfu_table_reference(sfu_table_id t, unsigned k);

/* The hardware's entry k of table t (f32 bits): the reference plus its correction; the
 * reference alone when the table's data is damaged (a build problem, said once on
 * stderr). */
unsigned sfu_table_entry(sfu_table_id t, unsigned k);

#endif
