// mma.sync (PTX ISA §9.7.14.5): every shape and type sm_80 offers, one tile per block.
// Each lane builds its fragments from row-major A (M x K), B (K x N) and C (M x N) by the
// fragment figures of PTX ISA §9.7.14.5.x (groupID g = lane >> 2, threadID_in_group t =
// lane % 4) and writes D back row-major. exact != 0 rounds the inputs to integers first
// (every sum then exact, whatever the accumulation order); exact == 0 keeps general
// floats (rounding and accumulation order show). Conversions by inline PTX (no headers).
#define LANE                                                                               \
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;                        \
    (void)g;                                                                               \
    (void)t
#define TILE(p, n) ((p) + blockIdx.x * (n))

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
// f32 -> tf32 bits: round to nearest, ties away from zero (as cvt.rna.tf32.f32)
__device__ __forceinline__ unsigned tf32(float x)
{
    return (__float_as_uint(x) + 0x1000u) & 0xffffe000u;
}
__device__ __forceinline__ float in(const float *p, int i, int exact)
{
    return exact ? rintf(p[i]) : p[i];
}
__device__ __forceinline__ unsigned pk(float lo, float hi, int bf)
{
    return bf ? b16(lo) | b16(hi) << 16 : h16(lo) | h16(hi) << 16;
}

// A (16 x K) of 16-bit elements: register r holds row g + 8 (r % 2), columns
// 2t + 8 (r / 2) and the next one.
__device__ void frag_a16(const float *A, int K, int nr, int exact, int bf, unsigned *a)
{
    LANE;
    for (int r = 0; r < nr; r++) {
        const int row = g + 8 * (r % 2), col = 2 * t + 8 * (r / 2);
        a[r] = pk(in(A, row * K + col, exact), in(A, row * K + col + 1, exact), bf);
    }
}
// B (K x 8) of 16-bit elements: register r holds rows 2t + 8r and the next, column g.
__device__ void frag_b16(const float *B, int nr, int exact, int bf, unsigned *b)
{
    LANE;
    for (int r = 0; r < nr; r++) {
        const int row = 2 * t + 8 * r;
        b[r] = pk(in(B, row * 8 + g, exact), in(B, (row + 1) * 8 + g, exact), bf);
    }
}
// C and D (16 x 8): element i at row g + 8 (i / 2), column 2t + i % 2.
__device__ __forceinline__ int cidx(int i)
{
    LANE;
    return (g + 8 * (i / 2)) * 8 + 2 * t + i % 2;
}

// The asm of a float mma with NA A registers (4: k16 or tf32 k8; 2: k8 or tf32 k4),
// chosen by the preprocessor so that no asm of the wrong shape reaches the PTX (nvcc -G
// keeps the untaken branch of an if).
#define MMA_F32_ASM_4(SHAPE, TY)                                                              \
    asm volatile("mma.sync.aligned." SHAPE ".row.col.f32." TY "." TY ".f32 "                  \
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"                  \
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])                             \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), \
                   "f"(c[1]), "f"(c[2]), "f"(c[3]))
#define MMA_F32_ASM_2(SHAPE, TY)                                                              \
    asm volatile("mma.sync.aligned." SHAPE ".row.col.f32." TY "." TY ".f32 "                  \
                 "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"                              \
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])                             \
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]))

#define MMA_F32(NAME, SHAPE, TY, K, NA, NB, BF)                                               \
    extern "C" __global__ void NAME(const float *A, const float *B, const float *C, float *D, \
                                    int exact)                                                \
    {                                                                                         \
        A = TILE(A, 16 * K), B = TILE(B, K * 8), C = TILE(C, 128), D = TILE(D, 128);          \
        unsigned a[4], b[2];                                                                  \
        float c[4], d[4];                                                                     \
        frag_a16(A, K, NA, exact, BF, a);                                                     \
        frag_b16(B, NB, exact, BF, b);                                                        \
        for (int i = 0; i < 4; i++)                                                           \
            c[i] = in(C, cidx(i), exact);                                                     \
        MMA_F32_ASM_##NA(SHAPE, TY);                                                          \
        for (int i = 0; i < 4; i++)                                                           \
            D[cidx(i)] = d[i];                                                                \
    }

MMA_F32(mma_m16n8k16_f16_f32, "m16n8k16", "f16", 16, 4, 2, 0)
MMA_F32(mma_m16n8k8_f16_f32, "m16n8k8", "f16", 8, 2, 1, 0)
MMA_F32(mma_m16n8k16_bf16_f32, "m16n8k16", "bf16", 16, 4, 2, 1)
MMA_F32(mma_m16n8k8_bf16_f32, "m16n8k8", "bf16", 8, 2, 1, 1)

// f16 C and D: two .f16x2 registers, elements 0-1 and 2-3.
extern "C" __global__ void mma_m16n8k16_f16_f16(const float *A, const float *B, const float *C,
                                                float *D, int exact)
{
    A = TILE(A, 256), B = TILE(B, 128), C = TILE(C, 128), D = TILE(D, 128);
    unsigned a[4], b[2], c[2], d[2];
    frag_a16(A, 16, 4, exact, 0, a);
    frag_b16(B, 2, exact, 0, b);
    for (int r = 0; r < 2; r++)
        c[r] = pk(in(C, cidx(2 * r), exact), in(C, cidx(2 * r + 1), exact), 0);
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, "
                 "{%6,%7}, {%8,%9};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]),
                   "r"(c[1]));
    for (int i = 0; i < 4; i++)
        D[cidx(i)] = h2f((d[i / 2] >> (16 * (i % 2))) & 0xffff);
}

// tf32: A register r holds row g + 8 (r % 2), column t + 4 (r / 2); B register r row
// t + 4r, column g.
#define MMA_TF32(NAME, SHAPE, K, NA, NB)                                                      \
    extern "C" __global__ void NAME(const float *A, const float *B, const float *C, float *D, \
                                    int exact)                                                \
    {                                                                                         \
        LANE;                                                                                 \
        A = TILE(A, 16 * K), B = TILE(B, K * 8), C = TILE(C, 128), D = TILE(D, 128);          \
        unsigned a[4], b[2];                                                                  \
        float c[4], d[4];                                                                     \
        for (int r = 0; r < NA; r++)                                                          \
            a[r] = tf32(in(A, (g + 8 * (r % 2)) * K + t + 4 * (r / 2), exact));               \
        for (int r = 0; r < NB; r++)                                                          \
            b[r] = tf32(in(B, (t + 4 * r) * 8 + g, exact));                                   \
        for (int i = 0; i < 4; i++)                                                           \
            c[i] = in(C, cidx(i), exact);                                                     \
        MMA_F32_ASM_##NA(SHAPE, "tf32");                                                      \
        for (int i = 0; i < 4; i++)                                                           \
            D[cidx(i)] = d[i];                                                                \
    }

MMA_TF32(mma_m16n8k8_tf32, "m16n8k8", 8, 4, 2)
MMA_TF32(mma_m16n8k4_tf32, "m16n8k4", 4, 2, 1)

// f64 m8n8k4: A row g column t, B row t column g, C/D row g columns 2t and 2t + 1.
extern "C" __global__ void mma_m8n8k4_f64(const double *A, const double *B, const double *C,
                                          double *D, int exact)
{
    LANE;
    A = TILE(A, 32), B = TILE(B, 32), C = TILE(C, 64), D = TILE(D, 64);
    double a = exact ? rint(A[g * 4 + t]) : A[g * 4 + t];
    double b = exact ? rint(B[t * 8 + g]) : B[t * 8 + g];
    double c0 = exact ? rint(C[g * 8 + 2 * t]) : C[g * 8 + 2 * t];
    double c1 = exact ? rint(C[g * 8 + 2 * t + 1]) : C[g * 8 + 2 * t + 1];
    double d0, d1;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, "
                 "{%4,%5};"
                 : "=d"(d0), "=d"(d1)
                 : "d"(a), "d"(b), "d"(c0), "d"(c1));
    D[g * 8 + 2 * t] = d0;
    D[g * 8 + 2 * t + 1] = d1;
}

// Integer types: E-bit elements, PER = 32 / E to a register. A (M x K) register r holds
// row g + 8 (r % 2) (m16) or g (m8), columns t * PER + (r / 2) * 4 * PER (m16) or
// t * PER (m8) onwards; B (K x 8) register r holds rows t * PER + r * 4 * PER onwards,
// column g. Inputs are ints, packed from the low bits.
__device__ unsigned ipack(const int *p, int i0, int step, int E)
{
    unsigned v = 0;
    for (int j = 0; j < 32 / E; j++)
        v |= ((unsigned)p[i0 + j * step] & ((1u << E) - 1)) << (j * E);
    return v;
}

#define MMA_INT(NAME, MODS, M, K, E, NA, NB)                                                  \
    extern "C" __global__ void NAME(const int *A, const int *B, const int *C, int *D)         \
    {                                                                                         \
        LANE;                                                                                 \
        const int PER = 32 / E;                                                               \
        A = TILE(A, M * K), B = TILE(B, K * 8), C = TILE(C, M * 8), D = TILE(D, M * 8);       \
        unsigned a[4], b[2];                                                                  \
        int c[4], d[4];                                                                       \
        for (int r = 0; r < NA; r++) {                                                        \
            const int row = M == 16 ? g + 8 * (r % 2) : g;                                    \
            const int col = t * PER + (M == 16 ? (r / 2) : r) * 4 * PER;                      \
            a[r] = ipack(A, row * K + col, 1, E);                                             \
        }                                                                                     \
        for (int r = 0; r < NB; r++)                                                          \
            b[r] = ipack(B, (t * PER + r * 4 * PER) * 8 + g, 8, E);                           \
        for (int i = 0; i < M / 4; i++)                                                       \
            c[i] = C[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2];                                  \
        MMA_INT_ASM_##NA##_##NB(MODS);                                                        \
        for (int i = 0; i < M / 4; i++)                                                       \
            D[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = d[i];                                  \
    }
#define MMA_INT_ASM_4_2(MODS)                                                                 \
    asm volatile("mma.sync.aligned." MODS " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "          \
                 "{%10,%11,%12,%13};"                                                         \
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                             \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),          \
                   "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))
#define MMA_INT_ASM_2_1(MODS)                                                                 \
    asm volatile("mma.sync.aligned." MODS " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"    \
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                             \
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))
#define MMA_INT_ASM_1_1(MODS)                                                                 \
    asm volatile("mma.sync.aligned." MODS " {%0,%1}, {%2}, {%3}, {%4,%5};"                    \
                 : "=r"(d[0]), "=r"(d[1])                                                     \
                 : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]))

MMA_INT(mma_m16n8k16_s8, "m16n8k16.row.col.s32.s8.s8.s32", 16, 16, 8, 2, 1)
MMA_INT(mma_m16n8k16_u8s8_sat, "m16n8k16.row.col.satfinite.s32.u8.s8.s32", 16, 16, 8, 2, 1)
MMA_INT(mma_m16n8k32_s8_sat, "m16n8k32.row.col.satfinite.s32.s8.s8.s32", 16, 32, 8, 4, 2)
MMA_INT(mma_m16n8k32_u8, "m16n8k32.row.col.s32.u8.u8.s32", 16, 32, 8, 4, 2)
MMA_INT(mma_m16n8k32_s4, "m16n8k32.row.col.s32.s4.s4.s32", 16, 32, 4, 2, 1)
MMA_INT(mma_m16n8k64_u4s4_sat, "m16n8k64.row.col.satfinite.s32.u4.s4.s32", 16, 64, 4, 4, 2)
MMA_INT(mma_m16n8k128_b1_xor, "m16n8k128.row.col.s32.b1.b1.s32.xor.popc", 16, 128, 1, 2, 1)
MMA_INT(mma_m8n8k16_s8, "m8n8k16.row.col.s32.s8.s8.s32", 8, 16, 8, 1, 1)
MMA_INT(mma_m8n8k32_s4_sat, "m8n8k32.row.col.satfinite.s32.s4.s4.s32", 8, 32, 4, 1, 1)
MMA_INT(mma_m8n8k128_b1_xor, "m8n8k128.row.col.s32.b1.b1.s32.xor.popc", 8, 128, 1, 1, 1)
