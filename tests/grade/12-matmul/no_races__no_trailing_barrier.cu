// Wrong: no barrier after the tiles are used: a fast warp stores the next tile
// while slower ones still read this one.
#define T 32
extern "C" __global__ void matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * T, col0 = blockIdx.x * T;
    float acc[2][2] = {};
    for (int t = 0; t < K; t += T) {
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                int r = ty + 16 * i, c = tx + 16 * j;
                As[r][c] = row0 + r < M && t + c < K ? A[(row0 + r) * K + t + c] : 0.0f;
                Bs[r][c] = t + r < K && col0 + c < N ? B[(t + r) * N + col0 + c] : 0.0f;
            }
        __syncthreads();
        for (int k = 0; k < T; k++) {
            float a0 = As[ty][k], a1 = As[ty + 16][k];
            float b0 = Bs[k][tx], b1 = Bs[k][tx + 16];
            acc[0][0] += a0 * b0;
            acc[0][1] += a0 * b1;
            acc[1][0] += a1 * b0;
            acc[1][1] += a1 * b1;
        }
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            int row = row0 + ty + 16 * i, col = col0 + tx + 16 * j;
            if (row < M && col < N)
                C[row * N + col] = acc[i][j];
        }
}
// expect-advice: after line 21 and before a loop comes back to line 16
// expect-no-advice: __syncwarp
