// mma.sync forms beyond mma_sync.cu's (PTX ISA §9.7.14.5): the sm_70 quad-pair
// m8n8k4 with .f16 inputs (valid PTX for every later target), f64 m16n8k4/k8/k16
// (sm_90) and fp8 .e4m3/.e5m2 m16n8k32 (sm_89). Needs sm_90 (f64 m16n8k*). Same
// conventions as mma_sync.cu: row-major A (M x K), B (K x N), C and D (M x N) per tile,
// groupID g = lane >> 2, threadID_in_group t = lane % 4; exact != 0 rounds the inputs
// to integers first.
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

// m8n8k4 .f16 (PTX ISA §9.7.14.5.1 "Matrix Fragments for mma.m8n8k4 with .f16 floating
// point type"): the warp is four quad-pairs, lanes 4p ... 4p+3 and 4p+16 ... 4p+19, each
// multiplying its own 8 x 8 x 4 matrices; block b computes tiles 4b + p. In a quad-pair,
// hi = lane >= 16. A .row: element i of the lane's two .f16x2 registers at row t + 4 hi,
// column i; A .col: row i + 4 hi, column t. B .col: row i, column t + 4 hi; B .row: row t,
// column i + 4 hi. f16 C/D: element i at row t + 4 hi, column i; f32 C/D: row
// (lane & 1) + (i & 2) + 4 hi, column (lane & 2) + (i & 1) + (i & 4).
#define QP                                                                                 \
    LANE;                                                                                  \
    const int tile = blockIdx.x * 4 + ((lane >> 2) & 3), hi = lane >= 16;                  \
    A += tile * 32, B += tile * 32, C += tile * 64, D += tile * 64;                        \
    (void)hi
__device__ __forceinline__ int qa(int i, int arow)
{
    LANE;
    const int hi = lane >= 16;
    return arow ? (t + 4 * hi) * 4 + i : (i + 4 * hi) * 4 + t;
}
__device__ __forceinline__ int qb(int i, int brow)
{
    LANE;
    const int hi = lane >= 16;
    return brow ? t * 8 + i + 4 * hi : i * 8 + t + 4 * hi;
}
__device__ __forceinline__ int qc32(int i)
{
    LANE;
    const int hi = lane >= 16;
    return ((lane & 1) + (i & 2) + 4 * hi) * 8 + (lane & 2) + (i & 1) + (i & 4);
}

extern "C" __global__ void mma_m8n8k4_f16_f32_rc(const float *A, const float *B, const float *C,
                                                 float *D, int exact)
{
    QP;
    unsigned a[2], b[2];
    float c[8], d[8];
    for (int r = 0; r < 2; r++) {
        a[r] = h16(in(A, qa(2 * r, 1), exact)) | h16(in(A, qa(2 * r + 1, 1), exact)) << 16;
        b[r] = h16(in(B, qb(2 * r, 0), exact)) | h16(in(B, qb(2 * r + 1, 0), exact)) << 16;
    }
    for (int i = 0; i < 8; i++)
        c[i] = in(C, qc32(i), exact);
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%0,%1,%2,%3,%4,%5,%6,%7}, "
                 "{%8,%9}, {%10,%11}, {%12,%13,%14,%15,%16,%17,%18,%19};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]),
                   "=f"(d[6]), "=f"(d[7])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]),
                   "f"(c[3]), "f"(c[4]), "f"(c[5]), "f"(c[6]), "f"(c[7]));
    for (int i = 0; i < 8; i++)
        D[qc32(i)] = d[i];
}

extern "C" __global__ void mma_m8n8k4_f16_f16_cr(const float *A, const float *B, const float *C,
                                                 float *D, int exact)
{
    QP;
    const int row = (t + 4 * hi) * 8;
    unsigned a[2], b[2], c[4], d[4];
    for (int r = 0; r < 2; r++) {
        a[r] = h16(in(A, qa(2 * r, 0), exact)) | h16(in(A, qa(2 * r + 1, 0), exact)) << 16;
        b[r] = h16(in(B, qb(2 * r, 1), exact)) | h16(in(B, qb(2 * r + 1, 1), exact)) << 16;
    }
    for (int r = 0; r < 4; r++)
        c[r] = h16(in(C, row + 2 * r, exact)) | h16(in(C, row + 2 * r + 1, exact)) << 16;
    asm volatile("mma.sync.aligned.m8n8k4.col.row.f16.f16.f16.f16 {%0,%1,%2,%3}, {%4,%5}, "
                 "{%6,%7}, {%8,%9,%10,%11};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]),
                   "r"(c[3]));
    for (int i = 0; i < 8; i++)
        D[row + i] = h2f((d[i / 2] >> (16 * (i % 2))) & 0xffff);
}

// f64 m16n8k{4,8,16} (PTX ISA §9.7.14.5.1, sm_90): A register r holds row g + 8 (r % 2),
// column t + 4 (r / 2); B register r row t + 4r, column g; C and D element i row
// g + 8 (i / 2), column 2t + i % 2.
#define MMA_F64(NAME, K, NA, NB, ALIST, BLIST, ...)                                        \
    extern "C" __global__ void NAME(const double *A, const double *B, const double *C,     \
                                    double *D, int exact)                                  \
    {                                                                                      \
        LANE;                                                                              \
        A = TILE(A, 16 * K), B = TILE(B, K * 8), C = TILE(C, 128), D = TILE(D, 128);       \
        double a[8], b[4], c[4], d[4];                                                     \
        for (int r = 0; r < NA; r++) {                                                     \
            const double v = A[(g + 8 * (r % 2)) * K + t + 4 * (r / 2)];                   \
            a[r] = exact ? rint(v) : v;                                                    \
        }                                                                                  \
        for (int r = 0; r < NB; r++)                                                       \
            b[r] = exact ? rint(B[(t + 4 * r) * 8 + g]) : B[(t + 4 * r) * 8 + g];          \
        for (int i = 0; i < 4; i++) {                                                      \
            const double v = C[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2];                     \
            c[i] = exact ? rint(v) : v;                                                    \
        }                                                                                  \
        asm volatile("mma.sync.aligned.m16n8k" #K ".row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, " \
                     ALIST ", " BLIST ", {%4,%5,%6,%7};"                                   \
                     : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])                      \
                     : "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]), __VA_ARGS__);                 \
        for (int i = 0; i < 4; i++)                                                        \
            D[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = d[i];                               \
    }
MMA_F64(mma_m16n8k4_f64, 4, 2, 1, "{%8,%9}", "{%10}", "d"(a[0]), "d"(a[1]), "d"(b[0]))
MMA_F64(mma_m16n8k8_f64, 8, 4, 2, "{%8,%9,%10,%11}", "{%12,%13}", "d"(a[0]), "d"(a[1]),
        "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]))
MMA_F64(mma_m16n8k16_f64, 16, 8, 4, "{%8,%9,%10,%11,%12,%13,%14,%15}", "{%16,%17,%18,%19}",
        "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]),
        "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]))

// fp8 m16n8k32 (PTX ISA §9.7.14.5.1, sm_89; the .s8 m16n8k32 layout): A and B come as
// raw .e4m3/.e5m2 bytes. A register r holds row g + 8 (r % 2), columns 4t + 16 (r / 2) ...
// + 3; B register r rows 4t + 16r ... + 3, column g; elements from the low byte up.
__device__ __forceinline__ unsigned bpack(const unsigned char *p, int i0, int step)
{
    return p[i0] | p[i0 + step] << 8 | p[i0 + 2 * step] << 16 | (unsigned)p[i0 + 3 * step] << 24;
}
#define MMA_FP8(NAME, TA, TB)                                                              \
    extern "C" __global__ void NAME(const unsigned char *A, const unsigned char *B,        \
                                    const float *C, float *D)                              \
    {                                                                                      \
        LANE;                                                                              \
        A = TILE(A, 16 * 32), B = TILE(B, 32 * 8), C = TILE(C, 128), D = TILE(D, 128);     \
        unsigned a[4], b[2];                                                               \
        float c[4], d[4];                                                                  \
        for (int r = 0; r < 4; r++)                                                        \
            a[r] = bpack(A, (g + 8 * (r % 2)) * 32 + 4 * t + 16 * (r / 2), 1);             \
        for (int r = 0; r < 2; r++)                                                        \
            b[r] = bpack(B, (4 * t + 16 * r) * 8 + g, 8);                                  \
        for (int i = 0; i < 4; i++)                                                        \
            c[i] = C[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2];                               \
        asm volatile("mma.sync.aligned.m16n8k32.row.col.f32." TA "." TB ".f32 "            \
                     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"           \
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])                      \
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),   \
                       "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));                        \
        for (int i = 0; i < 4; i++)                                                        \
            D[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = d[i];                               \
    }
MMA_FP8(mma_m16n8k32_e4m3, "e4m3", "e4m3")
MMA_FP8(mma_m16n8k32_e5m2_e4m3, "e5m2", "e4m3")
