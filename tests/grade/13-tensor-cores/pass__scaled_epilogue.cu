// Right: the reference's tensor-core product, then an alpha C + beta epilogue on the
// accumulator's elements (alpha = 1, beta = 0 for any M the exercise passes): M x N
// scalar multiply-adds beside the product's M x N x K on the tensor cores.
#include <mma.h>
using namespace nvcuda;

extern "C" __global__ void wmma_gemm(const signed char *A, const signed char *B, float *C, int M,
                                     int N, int K)
{
    __shared__ half As[32][16], Bs[16][32];
    const int tid = threadIdx.y * 32 + threadIdx.x, wr = threadIdx.y / 2, wc = threadIdx.y % 2;
    const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
    const float alpha = M > 0 ? 1.0f : 2.0f, beta = M > 0 ? 0.0f : 1.0f;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.0f);
    for (int t = 0; t < K; t += 16) {
        for (int i = tid; i < 512; i += 128) {
            const int ar = i / 16, ac = i % 16, br = i / 32, bc = i % 32;
            As[ar][ac] = __int2half_rn(row0 + ar < M ? A[(row0 + ar) * K + t + ac] : 0);
            Bs[br][bc] = __int2half_rn(col0 + bc < N ? B[(t + br) * N + col0 + bc] : 0);
        }
        __syncthreads();
        wmma::load_matrix_sync(a, &As[16 * wr][0], 16);
        wmma::load_matrix_sync(b, &Bs[0][16 * wc], 32);
        wmma::mma_sync(c, a, b, c);
        __syncthreads();
    }
    for (int i = 0; i < c.num_elements; i++)
        c.x[i] = alpha * c.x[i] + beta;
    if (row0 + 16 * wr < M && col0 + 16 * wc < N)
        wmma::store_matrix_sync(&C[(row0 + 16 * wr) * N + col0 + 16 * wc], c, N,
                                wmma::mem_row_major);
}
