// Exercise: C = A B for row-major matrices of floats (A is M x K, B is K x N, C is
// M x N). Blocks are 16 x 16 threads; block (bx, by) computes the 32 x 32 tile of C whose
// top-left element is C[32 by][32 bx], and thread (tx, ty) its four elements at rows
// 32 by + ty + 16 i and columns 32 bx + tx + 16 j (i, j = 0, 1).
// The starter is right, but every thread reads its rows of A and columns of B straight
// from global memory. Stage 32-wide tiles of A and B in shared memory so that each
// element loaded from global memory is used by many threads.
extern "C" __global__ void matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    int tx = threadIdx.x, ty = threadIdx.y;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            int row = blockIdx.y * 32 + ty + 16 * i;
            int col = blockIdx.x * 32 + tx + 16 * j;
            if (row < M && col < N) {
                float sum = 0.0f;
                for (int k = 0; k < K; k++)
                    sum += A[row * K + k] * B[k * N + col];
                C[row * N + col] = sum;
            }
        }
}
