// Tiled SGEMM with 16x16 shared tiles: C = A (M x K) * B (K x N), sizes not multiples of 16, zero-padded tiles.
#define T 16
extern "C" __global__ void sgemm_tiled16(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[T][T], Bs[T][T];
    int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        int ka = k0 + threadIdx.x, kb = k0 + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = row < M && ka < K ? A[row * K + ka] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = kb < K && col < N ? B[kb * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
