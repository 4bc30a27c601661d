// mma.sp (PTX ISA §9.7.14.6): every sparse shape and type sm_90 offers, one tile per
// block, block b with sparsity selector b % NSEL. Layout-free: lane l's registers are
// filled in order from the arrays (A: the compressed elements of its NA registers, B: NB
// registers, C: 4 elements), so the result shows where the hardware takes each element
// from; D is written back the same way. The metadata comes from E, each 4-bit field
// made valid (two different indices; 0x4 or 0xe for .tf32) so that every pattern of
// kept elements occurs. exact != 0 rounds float inputs to integers (every sum exact).
#define LANE const unsigned blk = blockIdx.x, lane = threadIdx.x & 31, tid = blk * 32 + lane

__device__ __forceinline__ unsigned h16(float x)
{
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
    return h;
}
__device__ __forceinline__ unsigned b16(float x)
{
    unsigned short h;
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(x));
    return h;
}
__device__ __forceinline__ float h2f(unsigned h)
{
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"((unsigned short)h));
    return f;
}
__device__ __forceinline__ float in(const float *p, int i, int exact)
{
    return exact ? rintf(p[i]) : p[i];
}

// Element bits of x in type ty: 0 f16, 1 bf16, 2 tf32 (round to nearest, ties away, as
// cvt.rna.tf32.f32).
__device__ __forceinline__ unsigned conv(float x, int ty)
{
    return ty == 0 ? h16(x) : ty == 1 ? b16(x) : (__float_as_uint(x) + 0x1000u) & 0xffffe000u;
}

// Register r of a 16- or 32-bit float fragment: elements PER * r ... from p.
__device__ unsigned fpack(const float *p, int r, int ty, int exact)
{
    if (ty == 2)
        return conv(in(p, r, exact), 2);
    return conv(in(p, 2 * r, exact), ty) | conv(in(p, 2 * r + 1, exact), ty) << 16;
}

// A register of E-bit integers from p (low bits first).
__device__ unsigned ipack(const int *p, int r, int E)
{
    unsigned v = 0;
    for (int j = 0; j < 32 / E; j++)
        v |= ((unsigned)p[r * (32 / E) + j] & ((1u << E) - 1)) << (j * E);
    return v;
}

// Valid metadata from random bits: each field one of the six index pairs (i0 < i1), or
// for .tf32 0x4 / 0xe.
__device__ unsigned meta(unsigned x, int tf32)
{
    const unsigned pairs[6] = {0x4, 0x8, 0xc, 0x9, 0xd, 0xe};
    unsigned m = 0;
    for (int q = 0; q < 8; q++) {
        const unsigned f = (x >> (4 * q)) & 15;
        m |= (tf32 ? (f & 1 ? 0xeu : 0x4u) : pairs[f % 6]) << (4 * q);
    }
    return m;
}

// The instruction with selector S ("0" ... "3"), NA (2 or 4) A and B registers, C type
// constraint CT ("f" or "r") and destination array OUT.
#define SP_ASM(FORM, NA, CT, OUT, S)                                                          \
    asm volatile("mma.sp.sync.aligned." FORM " {%0,%1,%2,%3}, " SP_A##NA ", " SP_B##NA        \
                 ", {%12,%13,%14,%15}, %16, " S ";"                                           \
                 : "=" CT(OUT[0]), "=" CT(OUT[1]), "=" CT(OUT[2]), "=" CT(OUT[3])             \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),          \
                   "r"(b[2]), "r"(b[3]), CT(c[0]), CT(c[1]), CT(c[2]), CT(c[3]), "r"(e))
#define SP_A2 "{%4,%5}"
#define SP_A4 "{%4,%5,%6,%7}"
#define SP_B2 "{%8,%9}"
#define SP_B4 "{%8,%9,%10,%11}"
#define SP_SEL4(FORM, NA, CT, OUT)                                                            \
    switch (blk % 4) {                                                                        \
    case 0: SP_ASM(FORM, NA, CT, OUT, "0"); break;                                            \
    case 1: SP_ASM(FORM, NA, CT, OUT, "1"); break;                                            \
    case 2: SP_ASM(FORM, NA, CT, OUT, "2"); break;                                            \
    default: SP_ASM(FORM, NA, CT, OUT, "3"); break;                                           \
    }
#define SP_SEL2(FORM, NA, CT, OUT)                                                            \
    if (blk % 2 == 0)                                                                         \
        SP_ASM(FORM, NA, CT, OUT, "0");                                                       \
    else                                                                                      \
        SP_ASM(FORM, NA, CT, OUT, "1");
#define SP_SEL1(FORM, NA, CT, OUT) SP_ASM(FORM, NA, CT, OUT, "0");

// Float A and B (TY: 0 f16, 1 bf16, 2 tf32), f32 C and D.
#define SP_F32(NAME, FORM, TY, NA, NSEL)                                                      \
    extern "C" __global__ void NAME(const float *A, const float *B, const float *C,           \
                                    const unsigned *E, float *D, int exact)                   \
    {                                                                                         \
        LANE;                                                                                 \
        const int per = TY == 2 ? 1 : 2;                                                      \
        unsigned a[4] = {0, 0, 0, 0}, b[4] = {0, 0, 0, 0}, e = meta(E[tid], TY == 2);         \
        float c[4], d[4];                                                                     \
        for (int r = 0; r < NA; r++) {                                                        \
            a[r] = fpack(A + tid * NA * per, r, TY, exact);                                   \
            b[r] = fpack(B + tid * NA * per, r, TY, exact);                                   \
        }                                                                                     \
        for (int i = 0; i < 4; i++)                                                           \
            c[i] = in(C, tid * 4 + i, exact);                                                 \
        SP_SEL##NSEL(FORM, NA, "f", d);                                                       \
        for (int i = 0; i < 4; i++)                                                           \
            D[tid * 4 + i] = d[i];                                                            \
    }

SP_F32(mma_sp_m16n8k16_f16, "m16n8k16.row.col.f32.f16.f16.f32", 0, 2, 4)
SP_F32(mma_sp_m16n8k32_f16, "m16n8k32.row.col.f32.f16.f16.f32", 0, 4, 2)
SP_F32(mma_sp_m16n8k16_bf16, "m16n8k16.row.col.f32.bf16.bf16.f32", 1, 2, 4)
SP_F32(mma_sp_m16n8k32_bf16, "m16n8k32.row.col.f32.bf16.bf16.f32", 1, 4, 2)
SP_F32(mma_sp_m16n8k8_tf32, "m16n8k8.row.col.f32.tf32.tf32.f32", 2, 2, 4)
SP_F32(mma_sp_m16n8k16_tf32, "m16n8k16.row.col.f32.tf32.tf32.f32", 2, 4, 2)

// f16 C and D: two .f16x2 registers.
extern "C" __global__ void mma_sp_m16n8k16_f16_f16(const float *A, const float *B,
                                                   const float *C, const unsigned *E, float *D,
                                                   int exact)
{
    LANE;
    unsigned a[2], b[2], c[2], d[2], e = meta(E[tid], 0);
    for (int r = 0; r < 2; r++) {
        a[r] = fpack(A + tid * 4, r, 0, exact);
        b[r] = fpack(B + tid * 4, r, 0, exact);
        c[r] = fpack(C + tid * 4, r, 0, exact);
    }
#define SP_H(S)                                                                               \
    asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, "    \
                 "{%4,%5}, {%6,%7}, %8, " S ";"                                               \
                 : "=r"(d[0]), "=r"(d[1])                                                     \
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(e))
    switch (blk % 4) {
    case 0: SP_H("0"); break;
    case 1: SP_H("1"); break;
    case 2: SP_H("2"); break;
    default: SP_H("3"); break;
    }
    for (int i = 0; i < 4; i++)
        D[tid * 4 + i] = h2f((d[i / 2] >> (16 * (i % 2))) & 0xffff);
}

// Integer A and B of E bits (MODS: the types, .satfinite), s32 C and D.
#define SP_INT(NAME, FORM, EB, NA, NSEL)                                                      \
    extern "C" __global__ void NAME(const int *A, const int *B, const int *C,                 \
                                    const unsigned *E, int *D)                                \
    {                                                                                         \
        LANE;                                                                                 \
        const int per = 32 / EB;                                                              \
        unsigned a[4] = {0, 0, 0, 0}, b[4] = {0, 0, 0, 0}, e = meta(E[tid], 0);               \
        int c[4], d[4];                                                                       \
        for (int r = 0; r < NA; r++) {                                                        \
            a[r] = ipack(A + tid * NA * per, r, EB);                                          \
            b[r] = ipack(B + tid * NA * per, r, EB);                                          \
        }                                                                                     \
        for (int i = 0; i < 4; i++)                                                           \
            c[i] = C[tid * 4 + i];                                                            \
        SP_SEL##NSEL(FORM, NA, "r", d);                                                       \
        for (int i = 0; i < 4; i++)                                                           \
            D[tid * 4 + i] = d[i];                                                            \
    }

SP_INT(mma_sp_m16n8k32_s8, "m16n8k32.row.col.satfinite.s32.s8.u8.s32", 8, 2, 2)
SP_INT(mma_sp_m16n8k64_u8, "m16n8k64.row.col.s32.u8.s8.s32", 8, 4, 1)
SP_INT(mma_sp_m16n8k64_s4, "m16n8k64.row.col.s32.s4.u4.s32", 4, 2, 2)
SP_INT(mma_sp_m16n8k128_u4, "m16n8k128.row.col.satfinite.s32.u4.s4.s32", 4, 4, 1)
