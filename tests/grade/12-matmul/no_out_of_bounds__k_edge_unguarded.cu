// Wrong: the tile loads check the rows of A and the columns of B but not the K edge: when
// K is not a multiple of the tile, the last tile reads B's rows K, K + 1, ... past its end
// (and A's columns past K, which are the next row's), in every block, the first as the last.
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
                As[r][c] = row0 + r < M ? A[(row0 + r) * K + t + c] : 0.0f;
                Bs[r][c] = col0 + c < N ? B[(t + r) * N + col0 + c] : 0.0f;
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
// expect-advice: Block (0,0,0) is not at the edge of the grid
// expect-advice: the last tile of a loop over K
// expect-no-advice: when n is not a multiple of the block size
