// Right: each thread computes the contiguous 2 x 2 sub-tile at rows 2 ty, 2 ty + 1 and
// columns 2 tx, 2 tx + 1 of the block's tile; the tiles are loaded through a linear
// thread index, four rows of 32 per pass of the 256 threads.
#define T 32
extern "C" __global__ void matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tid = threadIdx.y * 16 + threadIdx.x;
    int row0 = blockIdx.y * T, col0 = blockIdx.x * T;
    int ry = 2 * threadIdx.y, cx = 2 * threadIdx.x;
    float c00 = 0.0f, c01 = 0.0f, c10 = 0.0f, c11 = 0.0f;
    for (int t = 0; t < K; t += T) {
        for (int e = tid; e < T * T; e += 256) {
            int r = e / T, c = e % T;
            As[r][c] = row0 + r < M && t + c < K ? A[(row0 + r) * K + t + c] : 0.0f;
            Bs[r][c] = t + r < K && col0 + c < N ? B[(t + r) * N + col0 + c] : 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < T; k++) {
            float a0 = As[ry][k], a1 = As[ry + 1][k], b0 = Bs[k][cx], b1 = Bs[k][cx + 1];
            c00 = fmaf(a0, b0, c00);
            c01 = fmaf(a0, b1, c01);
            c10 = fmaf(a1, b0, c10);
            c11 = fmaf(a1, b1, c11);
        }
        __syncthreads();
    }
    float v[2][2] = {{c00, c01}, {c10, c11}};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            if (row0 + ry + i < M && col0 + cx + j < N)
                C[(row0 + ry + i) * N + col0 + cx + j] = v[i][j];
}
