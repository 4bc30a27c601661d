// Right: tiles padded to 33 columns, loaded with explicit branches, the inner loop
// unrolled; rows ty + 16 i and columns tx + 16 j as in the starter.
#define T 32
extern "C" __global__ void matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T + 1];
    __shared__ float Bs[T][T + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * T, col0 = blockIdx.x * T;
    float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};
    int tiles = (K + T - 1) / T;
    for (int tile = 0; tile < tiles; tile++) {
        int t = tile * T;
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                int r = ty + 16 * i, c = tx + 16 * j;
                if (row0 + r < M && t + c < K)
                    As[r][c] = A[(row0 + r) * K + t + c];
                else
                    As[r][c] = 0.0f;
                if (t + r < K && col0 + c < N)
                    Bs[r][c] = B[(t + r) * N + col0 + c];
                else
                    Bs[r][c] = 0.0f;
            }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < T; k++)
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++)
                    acc[i][j] += As[ty + 16 * i][k] * Bs[k][tx + 16 * j];
        __syncthreads();
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            int row = row0 + ty + 16 * i, col = col0 + tx + 16 * j;
            if (row < M && col < N)
                C[row * N + col] = acc[i][j];
        }
}
