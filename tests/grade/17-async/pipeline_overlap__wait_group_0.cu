// Wrong: the reference's double buffer, but it waits with cp.async.wait_group 0 right
// after committing tile t + 1: right and race-free, yet every copy has landed before the
// tile is used, so no copy is in flight while the block computes.
#define TILE 16

// The shared-window address of a pointer to shared memory (cvta.to.shared).
__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    unsigned r;
    asm("{ .reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a; }" : "=r"(r) : "l"(p));
    return r;
}

// cp.async.ca.shared.global (PTX ISA §9.7.9.25.3.1): starts a copy of 4 bytes from src
// to shared memory at dst; with valid false it reads nothing and writes 4 zero bytes.
__device__ __forceinline__ void cp_async4(int *dst, const int *src, bool valid)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(smem_addr(dst)), "l"(src),
                 "r"(valid ? 4 : 0)
                 : "memory");
}

// cp.async.commit_group: the copies this thread started since its last commit form a group.
__device__ __forceinline__ void cp_async_commit()
{
    asm volatile("cp.async.commit_group;" ::: "memory");
}

// cp.async.wait_group N: waits until at most N of this thread's most recent groups are
// still in flight (PTX ISA §9.7.9.25.3.3). Other threads' copies are not waited for.
template <int N> __device__ __forceinline__ void cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}

// Copies tile k0 / TILE of A and B into As, Bs; zeros outside the matrices (src-size 0).
__device__ __forceinline__ void copy_tile(int (*As)[TILE], int (*Bs)[TILE], const int *A,
                                          const int *B, int M, int N, int K, int k0)
{
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    bool a_in = row < M && k0 + tx < K, b_in = k0 + ty < K && col < N;
    cp_async4(&As[ty][tx], a_in ? &A[row * K + k0 + tx] : A, a_in);
    cp_async4(&Bs[ty][tx], b_in ? &B[(k0 + ty) * N + col] : B, b_in);
}

extern "C" __global__ void matmul_pipelined(const int *A, const int *B, int *C, int M, int N, int K)
{
    __shared__ int As[2][TILE][TILE], Bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    int tiles = (K + TILE - 1) / TILE;
    int acc = 0;
    copy_tile(As[0], Bs[0], A, B, M, N, K, 0);
    cp_async_commit();
    for (int t = 0; t < tiles; t++) {
        if (t + 1 < tiles)
            copy_tile(As[(t + 1) & 1], Bs[(t + 1) & 1], A, B, M, N, K, (t + 1) * TILE);
        cp_async_commit();  // one group per iteration, empty on the last
        cp_async_wait<0>(); // waits for tile t + 1 too: nothing stays in flight
        __syncthreads();    // every thread's copies of tile t landed
        for (int k = 0; k < TILE; k++)
            acc += As[t & 1][ty][k] * Bs[t & 1][k][tx];
        __syncthreads(); // the next iteration's copy overwrites buffer t % 2
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
// expect-advice: wait_group 1
