// Wrong (slow): a 2 x 2 register tile but no shared memory: every thread still loads its
// own rows of A and columns of B from global memory, 4 loads for 8 operations.
extern "C" __global__ void matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    int tx = threadIdx.x, ty = threadIdx.y;
    int r0 = blockIdx.y * 32 + ty, r1 = r0 + 16;
    int c0 = blockIdx.x * 32 + tx, c1 = c0 + 16;
    float acc[2][2] = {};
    for (int k = 0; k < K; k++) {
        float a0 = r0 < M ? A[r0 * K + k] : 0.0f, a1 = r1 < M ? A[r1 * K + k] : 0.0f;
        float b0 = c0 < N ? B[k * N + c0] : 0.0f, b1 = c1 < N ? B[k * N + c1] : 0.0f;
        acc[0][0] += a0 * b0;
        acc[0][1] += a0 * b1;
        acc[1][0] += a1 * b0;
        acc[1][1] += a1 * b1;
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            int row = r0 + 16 * i, col = c0 + 16 * j;
            if (row < M && col < N)
                C[row * N + col] = acc[i][j];
        }
}
