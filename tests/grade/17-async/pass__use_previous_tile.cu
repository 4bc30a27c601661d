// Right: iteration t copies tile t and multiplies tile t - 1 (t = 0 .. tiles), the
// same pipeline with the prologue folded into the loop.
#define TILE 16

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    unsigned r;
    asm("{ .reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a; }" : "=r"(r) : "l"(p));
    return r;
}

__device__ __forceinline__ void cp_async4(int *dst, const int *src, bool valid)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(smem_addr(dst)), "l"(src),
                 "r"(valid ? 4 : 0)
                 : "memory");
}

__device__ __forceinline__ void cp_async_commit()
{
    asm volatile("cp.async.commit_group;" ::: "memory");
}

template <int N> __device__ __forceinline__ void cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}

extern "C" __global__ void matmul_pipelined(const int *A, const int *B, int *C, int M, int N, int K)
{
    __shared__ int As[2][TILE][TILE], Bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    int tiles = (K + TILE - 1) / TILE;
    int acc = 0;
    for (int t = 0; t <= tiles; t++) {
        if (t < tiles) { // copy tile t into buffer t % 2; zeros outside the matrices
            int k0 = t * TILE, s = t & 1;
            bool a_in = row < M && k0 + tx < K, b_in = k0 + ty < K && col < N;
            cp_async4(&As[s][ty][tx], a_in ? &A[row * K + k0 + tx] : A, a_in);
            cp_async4(&Bs[s][ty][tx], b_in ? &B[(k0 + ty) * N + col] : B, b_in);
        }
        cp_async_commit();
        if (t == 0)
            continue;
        cp_async_wait<1>(); // tile t - 1 landed (this thread's part); tile t may be in flight
        __syncthreads();    // every thread's part of tile t - 1 landed
        int s = (t - 1) & 1;
        for (int k = 0; k < TILE; k++)
            acc += As[s][ty][k] * Bs[s][k][tx];
        __syncthreads(); // the next copy overwrites buffer s
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
