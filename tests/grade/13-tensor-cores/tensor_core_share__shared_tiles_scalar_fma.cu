// Wrong (slow): stages the tiles in shared memory as floats but multiplies with scalar fma:
// exact and race-free, with no tensor-core instruction.
extern "C" __global__ void wmma_gemm(const signed char *A, const signed char *B, float *C, int M,
                                     int N, int K)
{
    __shared__ float As[32][16], Bs[16][32];
    const int tid = threadIdx.y * 32 + threadIdx.x, wr = threadIdx.y / 2, wc = threadIdx.y % 2;
    const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
    const int col = 16 * wc + threadIdx.x % 16;
    float acc[8] = {};
    for (int t = 0; t < K; t += 16) {
        for (int i = tid; i < 512; i += 128) {
            const int ar = i / 16, ac = i % 16, br = i / 32, bc = i % 32;
            As[ar][ac] = row0 + ar < M ? A[(row0 + ar) * K + t + ac] : 0;
            Bs[br][bc] = col0 + bc < N ? B[(t + br) * N + col0 + bc] : 0;
        }
        __syncthreads();
        for (int i = 0; i < 8; i++)
            for (int k = 0; k < 16; k++)
                acc[i] += As[16 * wr + threadIdx.x / 16 + 2 * i][k] * Bs[k][col];
        __syncthreads();
    }
    for (int i = 0; i < 8; i++) {
        const int row = row0 + 16 * wr + threadIdx.x / 16 + 2 * i;
        if (row < M && col0 + col < N)
            C[row * N + col0 + col] = acc[i];
    }
}
