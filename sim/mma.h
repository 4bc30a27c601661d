/* mma.h — the semantics of the tensor-core (warp-level matrix) instructions, as pure
 * functions, public to runtime/ (the fragments view lays fragments out with them):
 * PTX ISA §9.7.14 "Warp Level Matrix Multiply-Accumulate Instructions" —
 * wmma.load/store/mma (§9.7.14.4), mma.sync (§9.7.14.5), ldmatrix (§9.7.14.5.15),
 * stmatrix (§9.7.14.5.16) and movmatrix (§9.7.14.5.17).
 *
 * Nothing here touches the simulator's state: the parser decodes an instruction's
 * modifiers with mma_decode, and the executor (exec_mma.c) asks which lane holds which
 * fragment element (mma_frag_pos) and does the arithmetic (mma_compute) on whole
 * matrices; runtime/fragments.c and runtime/instrument.c read the same layouts.
 * Fragments are named as in the PTX ISA: groupID = %laneid >> 2,
 * threadID_in_group = %laneid % 4.
 */
#ifndef GL_SIM_MMA_H
#define GL_SIM_MMA_H

#include <stddef.h>
#include <stdint.h>

/* Which instruction a descriptor describes. */
enum {
    MMA_K_MMA = 1, /* mma.sync.aligned */
    MMA_K_WLOAD,   /* wmma.load.{a,b,c}.sync.aligned */
    MMA_K_WSTORE,  /* wmma.store.d.sync.aligned */
    MMA_K_WMMA,    /* wmma.mma.sync.aligned */
    MMA_K_LDMATRIX,
    MMA_K_STMATRIX,
    MMA_K_MOVMATRIX,
};

/* Element types of the matrices (PTX ISA §9.7.14.1 "Matrix Data-types"). */
enum {
    MMA_T_NONE,
    MMA_T_F16,
    MMA_T_BF16,
    MMA_T_TF32,
    MMA_T_F32,
    MMA_T_F64,
    MMA_T_S8,
    MMA_T_U8,
    MMA_T_S4,
    MMA_T_U4,
    MMA_T_B1,
    MMA_T_S32,
    MMA_T_B16,
    MMA_T_E4M3, /* fp8: 4 exponent bits, 3 fraction, no inf, NaN S.1111.111 (sm_89) */
    MMA_T_E5M2, /* fp8: 5 exponent bits, 2 fraction, IEEE-like inf and NaN (sm_89) */
};

/* Matrices of an instruction: A (M x K), B (K x N), C and D (M x N). */
enum { MMA_A, MMA_B, MMA_C, MMA_D };

/* One decoded tensor-core instruction. For wmma.load/store, frag names the matrix and
 * arow its layout; for ldmatrix/stmatrix, num is the matrix count (1, 2 or 4) and the
 * type MMA_T_B16; movmatrix: m = n = 8, trans. */
typedef struct mma_desc {
    uint8_t kind;                       /* MMA_K_* */
    uint8_t m, n;                       /* 8, 16 or 32 */
    uint16_t k;                         /* 4 ... 256 */
    uint8_t atype, btype, ctype, dtype; /* MMA_T_* */
    uint8_t arow, brow;                 /* 1: .row (row-major), 0: .col */
    uint8_t frag;                       /* wmma.load/store: MMA_A, MMA_B or MMA_C */
    uint8_t satfinite;                  /* .satfinite: integer results clamp to s32 */
    uint8_t bop_and;                    /* b1: .and.popc (else .xor.popc) */
    uint8_t num;                        /* ldmatrix/stmatrix: .x1 .x2 .x4 */
    uint8_t trans;                      /* ldmatrix/stmatrix/movmatrix: .trans */
    uint8_t sparse;                     /* mma.sp (PTX ISA §9.7.14.6): 1 .sp, 2
                                           .sp::ordered_metadata; 0 dense. Not packed:
                                           ptx_mma_desc takes it from ptx_insn.cmp */
    uint8_t sel;                        /* mma.sp: the sparsity selector (0 ... 3) */
} mma_desc;

/* Packs a descriptor (all but sparse and sel) into 32 bits (kept in ptx_insn.target) and back. */
uint32_t mma_pack(const mma_desc *d);
void mma_unpack(uint32_t bits, mma_desc *d);

/* Decodes the modifiers of a tensor-core instruction: mnemonic is the whole mnemonic
 * ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "ldmatrix.sync.aligned.m8n8.x4
 * .shared.b16", ...), len its length. Fills *d and *space (0 when the mnemonic names
 * none, else 1 .global, 2 .shared: for wmma.load/store and ldmatrix/stmatrix). Returns
 * 1, or 0 with a message in err (errlen bytes) naming what the simulator does not know:
 * shapes and types are checked against the PTX ISA tables of §9.7.14.4.1 (wmma) and
 * §9.7.14.5.1 (mma). */
int mma_decode(const char *mnemonic, size_t len, mma_desc *d, int *space, char *err, size_t errlen);

/* Bits of one element of matrix `which` (MMA_A ... MMA_D) of d. */
unsigned mma_elem_bits(const mma_desc *d, int which);

/* Registers in the operand list of matrix `which` as the PTX ISA gives them (§9.7.14.4.x
 * fragment sizes for wmma, §9.7.14.5.x for mma); for ldmatrix/stmatrix/movmatrix, which
 * is MMA_D (the list). Each register holds 32 bits (64 for f64 elements). */
int mma_nregs(const mma_desc *d, int which);

/* Whether d is the sm_70 quad-pair form mma.m8n8k4 with .f16 inputs (PTX ISA
 * §9.7.14.5.1 "Matrix Fragments for mma.m8n8k4 with .f16 floating point type"): the warp
 * is four quad-pairs, p = (%laneid >> 2) & 3 holding lanes 4p ... 4p+3 and 4p+16 ...
 * 4p+19, each multiplying its own 8 x 8 x 4 matrices; mma_frag_pos then gives positions
 * in the lane's quad-pair's matrices. */
int mma_quad_pair(const mma_desc *d);

/* Where element j of register r of lane `lane`'s fragment of matrix `which` lives:
 * *row, *col in the M x K (A), K x N (B) or M x N (C, D) matrix. Elements are packed from
 * the register's low bits up (two f16 of an .f16x2: j = 0 is the low half). wmma
 * fragments are opaque in the PTX ISA (§9.7.14.4.1 "Matrix Fragments for WMMA"): the
 * simulator uses the mma.sync layouts (§9.7.14.5.8 m16n8k16 and siblings) tiled over the
 * wmma shape, as sm_80's HMMA.16816 works, with an f16 A or B fragment's extra registers
 * (8 where the matrix needs fewer) holding copies of the first ones; wmma.load, .mma and
 * .store agree with each other on it. */
void mma_frag_pos(const mma_desc *d, int which, unsigned lane, int r, int j, int *row, int *col);

/* Sparse mma (mma.sp, PTX ISA §9.7.14.6): A (M x K) is stored compressed, M x K/2, in
 * the fragments of the dense shape with K/2 (mma_sp_dense); each row of A is cut into
 * chunks whose kept elements a 4-bit metadata field places (§9.7.14.6.1): two 2-bit
 * indices, the low one for the chunk's first kept element. A chunk is 4 elements of a
 * 16- or 8-bit type (2 kept), 8 of a 4-bit type (indices count pairs: 2 pairs kept) and
 * 2 of .tf32 (1 kept: the field is 0x4 for element 0, 0xe for element 1). */

/* The dense descriptor whose A fragments hold sparse d's compressed A: K/2. */
mma_desc mma_sp_dense(const mma_desc *d);

/* How many sparsity selector values d takes (1, 2 or 4): as ptxas 13 accepts them. */
int mma_sp_selectors(const mma_desc *d);

/* Whether the hardware runs d's selector: those whose metadata lanes lie in the quad.
 * ptxas takes selectors 2 and 3 of .m16n8k32 .f16 too, and an H200 stops on them with
 * "illegal instruction" (tools/mma_sp_probe.cu). */
int mma_sp_selector_runs(const mma_desc *d);

/* Elements of A per metadata field (2, 4 or 8; above). */
int mma_sp_chunk(const mma_desc *d);

/* Where the metadata field of row `row`, chunk `chunk` (0 ... K / mma_sp_chunk - 1) of
 * sparse d's A lives: *lane (0 ... 31) and *bit (its lowest bit in that lane's
 * metadata register), for sparsity selector d->sel. Measured on an H200 for every shape,
 * type and selector (tools/mma_sp_probe.cu; the ISA gives it as pictures, §9.7.14.6.2):
 * the quad of rows g and g + 8 keeps them in the lanes the selector picks, 16/32-bit
 * types a row per half register, 8/4-bit types a row per lane. */
void mma_sp_meta_pos(const mma_desc *d, int row, int chunk, unsigned *lane, int *bit);

/* Where element j (0: the low 16 bits) of lane `lane`'s register of one 8 x 8 .b16 matrix
 * of ldmatrix (PTX ISA §9.7.14.5.15), stmatrix (§9.7.14.5.16) or movmatrix (§9.7.14.5.17)
 * lives: row lane / 4, column 2 * (lane % 4) + j; with trans (.trans, and movmatrix's
 * destination) in the transpose: row and column swapped. */
void mma_ldm_pos(int trans, unsigned lane, int j, int *row, int *col);

/* The lane that gives the shared-memory address of row `row` (0 ... 7, 16 bytes) of
 * matrix `matrix` (0 ... num - 1) of ldmatrix/stmatrix (PTX ISA §9.7.14.5.15: threads
 * 0-7 address matrix 0's rows, 8-15 matrix 1's, ...). */
static inline unsigned mma_ldm_row_lane(int matrix, int row)
{
    return (unsigned)(8 * matrix + row);
}

/* The floating-point accumulation model of mma/wmma with f16, bf16 or tf32 inputs, as
 * measured bit for bit by MMA-Sim (Microsoft, "MMA-Sim: Bit-Accurate Reference Model of
 * Tensor Cores and Matrix Cores", 2025; it refines Fasi, Higham, Mikaitis, Pranesh,
 * "Numerical behavior of NVIDIA tensor cores", PeerJ Comput. Sci. 2021). For each D
 * element, K is consumed in blocks of `block` products from k = 0 up; each block is one
 * fused addition of the running sum c and the block's products: products are exact; each
 * term's significand (c: in D's type; a product: the product of the inputs'
 * significands, with exponent the sum of theirs) is aligned to the largest exponent
 * among the terms and truncated to frac_bits fractional bits; the exact sum of the
 * truncated terms is rounded to D's type: f32 toward zero, f16 to nearest even. NaN in,
 * or inf - inf, gives the canonical NaN; inf stays inf. tf32 inputs lose their 13 low
 * bits (truncation). */
typedef struct mma_fp_model {
    int block;     /* products per fused addition (1 ... 32) */
    int frac_bits; /* fractional bits kept when aligning (23: none below f32's) */
} mma_fp_model;

/* The model for atype (MMA_T_F16, MMA_T_BF16, MMA_T_TF32, and the fp8 types, whose
 * entry ("e4m3:" in GPULEARN_MMA_MODEL) is that of the f16 steps an H100 runs fp8 mma
 * as: block 16, 25 bits, in mma.c's k order, C added last): mma.c's table for Hopper
 * (sm_90: whole K at once, 25 bits; the H100/H200 the corpus is recorded on), unless
 * GPULEARN_MMA_MODEL says otherwise: "ampere" (sm_80/86/89: K halves for f16/bf16 k16
 * and tf32 k8, 24 bits), "hopper", or per type "f16:16,25;bf16:16,25;tf32:8,25" (block,
 * frac_bits; read at each call, unknown parts ignored), so that the model can be fitted to
 * a GPU's measurement (tools/mma_probe.py) without a rebuild. */
mma_fp_model mma_model(int atype);

/* D = A * B + C for one warp: the matrices as row-major arrays of raw element bits (A:
 * m*k, B: k*n, C and D: m*n; f16/bf16 in the low 16 bits, s4/u4/b1 in the low bits,
 * f64 as its 64 bits). PTX ISA §9.7.14.5.14 mma: f16/bf16/tf32/fp8 by the model above
 * (fp8: two f16 steps, then C; wmma.mma .tf32, §9.7.14.4.3: blocks of at most 4
 * products; as an H100 does), except the quad-pair m8n8k4 .f16, which an H100 computes
 * as an f32 fma chain (mma.c); f64
 * one fma chain from k = 0, rounded to nearest (as MMA-Sim measured); integers exact,
 * wrapped to s32 or clamped with .satfinite; b1: c + popc(a XOR/AND b). */
void mma_compute(const mma_desc *d, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                 uint64_t *D);

/* The same with the model given (tests compare models). */
void mma_compute_model(const mma_desc *d, const mma_fp_model *model, const uint64_t *A,
                       const uint64_t *B, const uint64_t *C, uint64_t *D);

#endif
