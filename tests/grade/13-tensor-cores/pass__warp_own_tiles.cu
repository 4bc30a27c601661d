// Right: every warp stages its own 16 x 16 tiles of A and B in its own part of shared
// memory and synchronises with __syncwarp() only; warps outside C skip the whole loop.
#include <mma.h>
using namespace nvcuda;

extern "C" __global__ void wmma_gemm(const signed char *A, const signed char *B, float *C, int M,
                                     int N, int K)
{
    __shared__ half As[4][16 * 16], Bs[4][16 * 16];
    const int w = threadIdx.y, l = threadIdx.x;
    const int row0 = blockIdx.y * 32 + 16 * (w / 2), col0 = blockIdx.x * 32 + 16 * (w % 2);
    if (row0 >= M || col0 >= N)
        return;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.0f);
    for (int t = 0; t < K; t += 16) {
        for (int i = l; i < 256; i += 32) {
            As[w][i] = __int2half_rn(A[(row0 + i / 16) * K + t + i % 16]);
            Bs[w][i] = __int2half_rn(B[(t + i / 16) * N + col0 + i % 16]);
        }
        __syncwarp();
        wmma::load_matrix_sync(a, As[w], 16);
        wmma::load_matrix_sync(b, Bs[w], 16);
        wmma::mma_sync(c, a, b, c);
        __syncwarp();
    }
    wmma::store_matrix_sync(&C[row0 * N + col0], c, N, wmma::mem_row_major);
}
