// Right: 32 x 16 tiles of A and 16 x 32 tiles of B (half as deep along K): each thread
// loads two elements of each per tile, and the block meets twice as often.
#define T 32
#define TK 16
extern "C" __global__ void matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][TK];
    __shared__ float Bs[TK][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * T, col0 = blockIdx.x * T;
    float acc[2][2] = {};
    for (int t = 0; t < K; t += TK) {
        for (int i = 0; i < 2; i++) {
            int r = ty + 16 * i;
            As[r][tx] = row0 + r < M && t + tx < K ? A[(row0 + r) * K + t + tx] : 0.0f;
            Bs[ty][tx + 16 * i] =
                t + ty < K && col0 + tx + 16 * i < N ? B[(t + ty) * N + col0 + tx + 16 * i] : 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < TK; k++)
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
