// Exercise: C = A B on the tensor cores. A (M x K) and B (K x N) hold small integers as
// signed chars, C (M x N) is float, all row-major; M, N and K are multiples of 16.
// Blocks are 32 x 4 threads (four warps, warp w = threadIdx.y); block (bx, by) computes
// the 32 x 32 tile of C whose top-left element is C[32 by][32 bx], warp w its 16 x 16
// quarter at rows 32 by + 16 (w / 2), columns 32 bx + 16 (w % 2). Where M or N is not a
// multiple of 32 some quarters lie outside C.
// The starter is right, but it multiplies with scalar float fma, one product per thread
// per instruction. Stage 16-wide slices of A and B as half in shared memory and multiply
// them with wmma::mma_sync (#include <mma.h>, namespace nvcuda::wmma).
extern "C" __global__ void wmma_gemm(const signed char *A, const signed char *B, float *C, int M,
                                     int N, int K)
{
    const int wr = threadIdx.y / 2, wc = threadIdx.y % 2;
    const int col = blockIdx.x * 32 + 16 * wc + threadIdx.x % 16;
    for (int i = threadIdx.x / 16; i < 16; i += 2) {
        const int row = blockIdx.y * 32 + 16 * wr + i;
        if (row < M && col < N) {
            float sum = 0.0f;
            for (int k = 0; k < K; k++)
                sum += (float)A[row * K + k] * (float)B[k * N + col];
            C[row * N + col] = sum;
        }
    }
}
