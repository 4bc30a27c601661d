// mma.sync .b1 .and.popc (PTX ISA §9.7.14.5.14, PTX ISA 7.1+): apart from mma_sync.cu,
// whose integer kernels it copies, since clang 14 writes .version 7.0 for sm_80.
#define LANE                                                                               \
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;                        \
    (void)g;                                                                               \
    (void)t
#define TILE(p, n) ((p) + blockIdx.x * (n))

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
MMA_INT(mma_m16n8k256_b1_and, "m16n8k256.row.col.s32.b1.b1.s32.and.popc", 16, 256, 1, 4, 2)
