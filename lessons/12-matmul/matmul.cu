// C = A B for row-major matrices of floats: A is M x K, B is K x N, C is M x N, and
// C[row][col] = sum over k of A[row][k] * B[k][col]: 2 M N K floating-point operations
// (one multiply and one add per term). Three ways to compute it, as in PMPP chapter 5
// ("Memory architecture and data locality") and S. Boehm, "How to Optimize a CUDA Matmul
// Kernel for cuBLAS-like Performance".

// 1. Naive: one thread per element of C, blocks of 16 x 16 threads. Each thread reads a
// row of A and a column of B from global memory: 2 loads for 2 operations.
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

// 2. Shared-memory tiles: the block walks along K one 16 x 16 tile of A and of B at a
// time. Each thread loads one element of each tile, the block waits, and every thread
// then reads a row of As and a column of Bs from shared memory: each element loaded from
// global memory is used 16 times. Elements past the matrix's edge are loaded as 0.
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

// 3. Register tiling: a block of 16 x 16 threads computes a 64 x 64 tile of C, each
// thread a 4 x 4 sub-tile (rows ty + 16 i, columns tx + 16 j) held in registers. Per step
// of k a thread reads 4 values of As and 4 of Bs into registers and does their outer
// product: 16 multiply-adds for 8 shared-memory loads (the tiled kernel: 1 for 2).
#define BM 64
#define BN 64
#define BK 8
#define TM 4
#define TN 4
extern "C" __global__ void matmul_regtile(const float *A, const float *B, float *C, int M, int N,
                                          int K)
{
    __shared__ float As[BM][BK];
    __shared__ float Bs[BK][BN];
    int tx = threadIdx.x, ty = threadIdx.y;
    int t = ty * 16 + tx; // 0..255
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[TM][TN] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int e = t; e < BM * BK; e += 256) { // 2 elements of each tile per thread
            int r = e / BK, c = e % BK;
            As[r][c] = row0 + r < M && k0 + c < K ? A[(row0 + r) * K + k0 + c] : 0.0f;
            r = e / BN, c = e % BN;
            Bs[r][c] = k0 + r < K && col0 + c < N ? B[(k0 + r) * N + col0 + c] : 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < BK; k++) {
            float a[TM], b[TN];
            for (int i = 0; i < TM; i++)
                a[i] = As[ty + 16 * i][k];
            for (int j = 0; j < TN; j++)
                b[j] = Bs[k][tx + 16 * j];
            for (int i = 0; i < TM; i++) // the outer product a b
                for (int j = 0; j < TN; j++)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j++) {
            int row = row0 + ty + 16 * i, col = col0 + tx + 16 * j;
            if (row < M && col < N)
                C[row * N + col] = acc[i][j];
        }
}
