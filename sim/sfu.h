/* sfu.h — the special-function unit's .approx results bit for bit as an sm_90 GPU
 * (measured on an NVIDIA H200) gives them, for the forms whose hardware results are
 * modelled exactly: rcp, rsqrt, sqrt and ex2 .approx.f32, with and without .ftz (PTX
 * ISA §9.7.3.15 rcp.approx, §9.7.3.17 sqrt, §9.7.3.18 rsqrt, §9.7.3.21 ex2).
 *
 * What the hardware does was measured, not guessed (tools/sfu_dump.cu, tools/sfu_tables.c,
 * docs/architecture.md "The special-function unit"): the multi-function unit's result
 * depends on the input's mantissa alone, the exponent only scaling it (rcp, and rsqrt and
 * sqrt by the exponent's parity: checked on the GPU for every positive normal input), and
 * ex2 on the input as a fixed-point number with 23 fraction bits, its magnitude truncated
 * and, for a negative input, the fraction's bits inverted (one's complement). The
 * mantissa tables are each a correctly rounded reference plus a 2-bit correction per
 * entry (-2..+1 ulp), kept zlib-compressed in sim/sfu/ and inflated on first use. The
 * forms without .ftz are the instruction sequences ptxas emits around the unit (scaling
 * subnormal and huge inputs), computed with the same f32 operations.
 *
 * The f16/bf16 forms of ex2 and tanh follow below them, then sin and cos .approx.f32:
 * a measured quarter-wave table indexed by the argument's phase.
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

/* ex2.approx.f32 of x: 2^x (ex2(-inf) = +0, ex2(+inf) = +inf, ex2(+-0) = 1). */
float sfu_ex2(float x, int ftz);

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
 * are tanh.approx.f32's truncated where that was measured ([0.25, 1)), but the f32 form
 * is not modelled yet. */
unsigned short sfu_tanh_f16(unsigned short a);
unsigned short sfu_tanh_bf16(unsigned short a);

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
