// WMMA (CUDA C++ Programming Guide "Warp Matrix Functions"; PTX ISA §9.7.14.4 wmma.load,
// wmma.mma, wmma.store) for every shape and type sm_80 offers, with A, B and C loaded in
// row- or column-major layout (the la, lb, lc arguments: 1 row-major) from shared memory
// and D stored to global memory in C's layout. One tile per block. exact != 0 rounds the
// float inputs to integers (exact sums); exact == 0 keeps general floats. Needs the CUDA
// headers (mma.h): clang's prelude has none. Needs CUDA headers (nvcc).
#include <mma.h>
using namespace nvcuda;

template <typename T> __device__ T conv(float x);
template <> __device__ half conv<half>(float x) { return __float2half_rn(x); }
template <> __device__ __nv_bfloat16 conv<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }
// tf32 inputs: rounded to nearest, ties away, in float storage (as __float_to_tf32)
template <> __device__ float conv<float>(float x)
{
    return __uint_as_float((__float_as_uint(x) + 0x1000u) & 0xffffe000u);
}
template <> __device__ double conv<double>(float x) { return x; }
template <> __device__ signed char conv<signed char>(float x) { return (signed char)x; }
template <> __device__ unsigned char conv<unsigned char>(float x) { return (unsigned char)x; }

template <typename L> struct is_row {
    static const int v = 0;
};
template <> struct is_row<wmma::row_major> {
    static const int v = 1;
};

// Element (r, c) of an R x C matrix in shared memory, row- or column-major.
__device__ __forceinline__ int at(int r, int c, int R, int C, int row)
{
    return row ? r * C + c : c * R + r;
}

template <int M, int N, int K, typename TI, typename FI, typename TC, typename LA, typename LB>
__device__ void tile(const float *A, const float *B, const float *C, TC *D, int lc, int exact)
{
    __shared__ TI sa[M * K], sb[K * N];
    __shared__ TC sc[M * N];
    const int arow = is_row<LA>::v, brow = is_row<LB>::v;
    A += blockIdx.x * M * K, B += blockIdx.x * K * N, C += blockIdx.x * M * N;
    D += blockIdx.x * M * N;
    for (int i = threadIdx.x; i < M * K; i += 32) {
        const float x = exact ? rintf(A[i]) : A[i];
        sa[at(i / K, i % K, M, K, arow)] = conv<TI>(x);
    }
    for (int i = threadIdx.x; i < K * N; i += 32) {
        const float x = exact ? rintf(B[i]) : B[i];
        sb[at(i / N, i % N, K, N, brow)] = conv<TI>(x);
    }
    for (int i = threadIdx.x; i < M * N; i += 32)
        sc[at(i / N, i % N, M, N, lc)] = (TC)(exact ? rintf(C[i]) : C[i]);
    __syncwarp();
    wmma::fragment<wmma::matrix_a, M, N, K, FI, LA> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, FI, LB> fb;
    wmma::fragment<wmma::accumulator, M, N, K, TC> fc;
    wmma::load_matrix_sync(fa, sa, arow ? K : M);
    wmma::load_matrix_sync(fb, sb, brow ? N : K);
    wmma::load_matrix_sync(fc, sc, lc ? N : M, lc ? wmma::mem_row_major : wmma::mem_col_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(D, fc, lc ? N : M, lc ? wmma::mem_row_major : wmma::mem_col_major);
}

#define WMMA(NAME, M, N, K, TI, FI, TC, LA, LB)                                               \
    extern "C" __global__ void NAME(const float *A, const float *B, const float *C, TC *D,    \
                                    int lc, int exact)                                        \
    {                                                                                         \
        tile<M, N, K, TI, FI, TC, wmma::LA, wmma::LB>(A, B, C, D, lc, exact);                 \
    }

WMMA(wmma_m16n16k16_f16_rr, 16, 16, 16, half, half, float, row_major, row_major)
WMMA(wmma_m16n16k16_f16_cc, 16, 16, 16, half, half, float, col_major, col_major)
WMMA(wmma_m16n16k16_f16_rc_f16, 16, 16, 16, half, half, half, row_major, col_major)
WMMA(wmma_m32n8k16_f16_cr, 32, 8, 16, half, half, float, col_major, row_major)
WMMA(wmma_m8n32k16_f16_rc, 8, 32, 16, half, half, float, row_major, col_major)
WMMA(wmma_m16n16k16_bf16_rc, 16, 16, 16, __nv_bfloat16, __nv_bfloat16, float, row_major,
     col_major)
WMMA(wmma_m32n8k16_bf16_rr, 32, 8, 16, __nv_bfloat16, __nv_bfloat16, float, row_major,
     row_major)
WMMA(wmma_m8n32k16_bf16_cc, 8, 32, 16, __nv_bfloat16, __nv_bfloat16, float, col_major,
     col_major)
WMMA(wmma_m16n16k8_tf32_rc, 16, 16, 8, float, wmma::precision::tf32, float, row_major,
     col_major)
WMMA(wmma_m8n8k4_f64_rc, 8, 8, 4, double, double, double, row_major, col_major)
WMMA(wmma_m16n16k16_s8_rc, 16, 16, 16, signed char, signed char, int, row_major, col_major)
WMMA(wmma_m32n8k16_u8_cr, 32, 8, 16, unsigned char, unsigned char, int, col_major, row_major)
WMMA(wmma_m8n32k16_s8_rr, 8, 32, 16, signed char, signed char, int, row_major, row_major)

// The fragments themselves: lane l's element e of the f16 m16n16k16 A (row-major), B
// (col-major) and f32 accumulator fragments, loaded from matrices whose element (r, c)
// is r * 16 + c (A: r * 16 + c, as exact halves). out: A, then B, then C, each
// 32 x num_elements. The PTX ISA leaves this layout to the implementation (§9.7.14.4.1):
// this case records the GPU's.
extern "C" __global__ void wmma_fragment_layout(float *out)
{
    __shared__ half sa[256], sb[256];
    __shared__ float sc[256];
    for (int i = threadIdx.x; i < 256; i += 32) {
        sa[i] = __int2half_rn(i);
        sb[i] = __int2half_rn(i);
        sc[i] = (float)i;
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::load_matrix_sync(fa, sa, 16);
    wmma::load_matrix_sync(fb, sb, 16);
    wmma::load_matrix_sync(fc, sc, 16, wmma::mem_row_major);
    const int l = threadIdx.x;
    for (int e = 0; e < fa.num_elements; e++)
        out[l * fa.num_elements + e] = __half2float(fa.x[e]);
    out += 32 * fa.num_elements;
    for (int e = 0; e < fb.num_elements; e++)
        out[l * fb.num_elements + e] = __half2float(fb.x[e]);
    out += 32 * fb.num_elements;
    for (int e = 0; e < fc.num_elements; e++)
        out[l * fc.num_elements + e] = fc.x[e];
}
