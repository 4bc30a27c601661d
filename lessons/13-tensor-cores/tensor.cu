// Tensor cores from CUDA C: WMMA (CUDA C++ Programming Guide "Warp Matrix Functions";
// PTX ISA §9.7.14.4) and mma.sync with ldmatrix (PTX ISA §9.7.14.5). Inputs are floats,
// rounded to half (or bf16) when they are staged in shared memory; the products are
// accumulated in f32. Needs the CUDA headers (mma.h): compile with NVRTC or nvcc.
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

// One warp, one 16 x 16 x 16 product: C = A B with A, B and C 16 x 16 row-major.
extern "C" __global__ void wmma_tile(const float *A, const float *B, float *C)
{
    __shared__ half As[16 * 16], Bs[16 * 16];
    for (int i = threadIdx.x; i < 256; i += 32) {
        As[i] = __float2half(A[i]);
        Bs[i] = __float2half(B[i]);
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.0f);
    wmma::load_matrix_sync(a, As, 16);
    wmma::load_matrix_sync(b, Bs, 16);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(C, c, 16, wmma::mem_row_major);
}

// One warp per block, one 16 x 16 tile of C per warp: for each 16-wide slice of K, the
// warp stages A's 16 x 16 and B's 16 x 16 tiles as half and accumulates their product.
// M, N and K are multiples of 16.
extern "C" __global__ void wmma_gemm(const float *A, const float *B, float *C, int M, int N,
                                     int K)
{
    __shared__ half As[16 * 16], Bs[16 * 16];
    const int row0 = blockIdx.y * 16, col0 = blockIdx.x * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.0f);
    for (int t = 0; t < K; t += 16) {
        for (int i = threadIdx.x; i < 256; i += 32) {
            As[i] = __float2half(A[(row0 + i / 16) * K + t + i % 16]);
            Bs[i] = __float2half(B[(t + i / 16) * N + col0 + i % 16]);
        }
        __syncwarp();
        wmma::load_matrix_sync(a, As, 16);
        wmma::load_matrix_sync(b, Bs, 16);
        wmma::mma_sync(c, a, b, c);
        __syncwarp();
    }
    wmma::store_matrix_sync(C + row0 * N + col0, c, N, wmma::mem_row_major);
}

// The shared-memory address of p, for ldmatrix.
__device__ __forceinline__ unsigned smem(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

// One warp, one mma.sync.m16n8k16 (PTX ISA §9.7.14.5.8): A 16 x 16, B 16 x 8, C 16 x 8,
// row-major. ldmatrix.x4 loads A's four 8 x 8 quarters, lane l naming row l % 8 of
// quarter l / 8; ldmatrix.x2.trans loads B's two 8 x 8 halves transposed, the "col"
// layout mma wants (PTX ISA §9.7.14.5.15).
template <typename T> __device__ T to(float x);
template <> __device__ half to<half>(float x) { return __float2half(x); }
template <> __device__ __nv_bfloat16 to<__nv_bfloat16>(float x) { return __float2bfloat16(x); }

// D = A B + D for one m16n8k16 tile with f32 accumulators (PTX ISA §9.7.14.5.8).
template <typename T> __device__ void mma16816(float *c, const unsigned *a, const unsigned *b);
#define MMA16816(T, TYPE)                                                                     \
    template <> __device__ void mma16816<T>(float *c, const unsigned *a, const unsigned *b)   \
    {                                                                                         \
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32." TYPE "." TYPE ".f32 "             \
                     "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"        \
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])                         \
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));     \
    }
MMA16816(half, "f16")
MMA16816(__nv_bfloat16, "bf16")

template <typename T> __device__ void mma_tile(const float *A, const float *B, float *C)
{
    __shared__ __align__(16) T As[16 * 16];
    __shared__ __align__(16) T Bs[16 * 8];
    const int l = threadIdx.x;
    for (int i = l; i < 256; i += 32)
        As[i] = to<T>(A[i]);
    for (int i = l; i < 128; i += 32)
        Bs[i] = to<T>(B[i]);
    __syncwarp();
    unsigned a[4], b[2];
    float c[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // quarter q = l / 8: rows 8 (q % 2) .. +7, columns 8 (q / 2) .. +7
    const T *arow = &As[(l % 8 + 8 * (l / 8 % 2)) * 16 + 8 * (l / 16)];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                 : "r"(smem(arow)));
    // lanes 0..15 name rows k = 0..15 of B (lanes 16..31 are ignored by .x2)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                 : "=r"(b[0]), "=r"(b[1])
                 : "r"(smem(&Bs[(l % 16) * 8])));
    mma16816<T>(c, a, b);
    // c[0], c[1]: row l / 4, columns 2 (l % 4) and + 1; c[2], c[3]: row l / 4 + 8
    const int r = l / 4, col = 2 * (l % 4);
    C[r * 8 + col] = c[0];
    C[r * 8 + col + 1] = c[1];
    C[(r + 8) * 8 + col] = c[2];
    C[(r + 8) * 8 + col + 1] = c[3];
}

extern "C" __global__ void mma_f16(const float *A, const float *B, float *C)
{
    mma_tile<half>(A, B, C);
}

extern "C" __global__ void mma_bf16(const float *A, const float *B, float *C)
{
    mma_tile<__nv_bfloat16>(A, B, C);
}

// 64 x 64 tiles of C per block of 4 warps, each warp a 32 x 32 tile (2 x 2 fragments);
// 32-wide slices of K staged as half in padded shared tiles (8 halves of padding keep
// the rows 16-byte aligned and spread them over the banks). M, N: multiples of 64;
// K: a multiple of 32; A, B 16-byte aligned.
#define BM 64
#define BK 32
#define PAD 8
extern "C" __global__ void wmma_gemm64(const float *A, const float *B, float *C, int M, int N,
                                       int K)
{
    __shared__ __align__(32) half As[BM][BK + PAD], Bs[BK][BM + PAD];
    const int tid = threadIdx.x, w = tid / 32;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BM;
    const int wr = (w / 2) * 32, wc = (w % 2) * 32;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c[2][2];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            wmma::fill_fragment(c[i][j], 0.0f);
    for (int t = 0; t < K; t += BK) {
        for (int i = tid; i < BM * BK / 4; i += 128) { // float4s: A's 64 x 32, B's 32 x 64
            const int ar = i / (BK / 4), ac = i % (BK / 4) * 4;
            const float4 x = *(const float4 *)&A[(row0 + ar) * K + t + ac];
            As[ar][ac] = __float2half(x.x), As[ar][ac + 1] = __float2half(x.y);
            As[ar][ac + 2] = __float2half(x.z), As[ar][ac + 3] = __float2half(x.w);
            const int br = i / (BM / 4), bc = i % (BM / 4) * 4;
            const float4 y = *(const float4 *)&B[(t + br) * N + col0 + bc];
            Bs[br][bc] = __float2half(y.x), Bs[br][bc + 1] = __float2half(y.y);
            Bs[br][bc + 2] = __float2half(y.z), Bs[br][bc + 3] = __float2half(y.w);
        }
        __syncthreads();
        for (int k = 0; k < BK; k += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
            for (int i = 0; i < 2; i++) {
                wmma::load_matrix_sync(a[i], &As[wr + 16 * i][k], BK + PAD);
                wmma::load_matrix_sync(b[i], &Bs[k][wc + 16 * i], BM + PAD);
            }
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++)
                    wmma::mma_sync(c[i][j], a[i], b[j], c[i][j]);
        }
        __syncthreads();
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            wmma::store_matrix_sync(&C[(row0 + wr + 16 * i) * N + col0 + wc + 16 * j], c[i][j], N,
                                    wmma::mem_row_major);
}
