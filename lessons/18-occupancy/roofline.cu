// Lesson 18: kernels on the roofline. Arithmetic intensity = floating-point operations
// per byte moved to or from DRAM; below the ridge point a kernel is memory-bound, above
// it compute-bound (Williams, Waterman and Patterson, "Roofline", CACM 2009; Nsight
// Compute Profiling Guide, "Roofline Charts").

// c = a + b: 1 addition per 12 bytes (two 4-byte loads, one store): 0.083 FLOP/byte.
extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

// C = A B in 16 x 16 tiles of shared memory (lesson 12, step 2): each element loaded from
// global memory serves 16 multiply-adds.
#define TILE 16
extern "C" __global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N,
                                        int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * TILE + tx;
    int row = blockIdx.y * TILE + ty;
    float sum = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : 0.0f;
        Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : 0.0f;
        __syncthreads(); // the tiles are full
        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads(); // everyone is done with them before they are overwritten
    }
    if (row < M && col < N)
        C[row * N + col] = sum;
}

// The naive product (lesson 12, step 1): every thread reads its row of A and column of
// B from global memory, 8 bytes per multiply-add.
extern "C" __global__ void matmul_naive(const float *A, const float *B, float *C, int M, int N,
                                        int K)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) {
        float sum = 0.0f;
        for (int k = 0; k < K; k++)
            sum += A[row * K + k] * B[k * N + col];
        C[row * N + col] = sum;
    }
}
