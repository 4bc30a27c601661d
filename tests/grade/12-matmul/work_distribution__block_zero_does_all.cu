// Wrong: the reference's tiling, but block (0, 0) walks every 32 x 32 tile of C while
// the other blocks return: right and reusing its tiles, on one SM only.
#define T 32
extern "C" __global__ void matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    if (blockIdx.x != 0 || blockIdx.y != 0)
        return;
    int tx = threadIdx.x, ty = threadIdx.y;
    for (int row0 = 0; row0 < M; row0 += T)
        for (int col0 = 0; col0 < N; col0 += T) {
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
                __syncthreads();
            }
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++) {
                    int row = row0 + ty + 16 * i, col = col0 + tx + 16 * j;
                    if (row < M && col < N)
                        C[row * N + col] = acc[i][j];
                }
        }
}
// expect-advice: its own tile
