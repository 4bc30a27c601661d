// C = A B (row-major floats; A is M x K, B is K x N) three ways, in blocks of 16 x 16
// threads, each thread one element of C, walking along K one 16 x 16 tile of A and of B
// at a time: (1) loads through registers, (2) cp.async, (3) cp.async double-buffered.
#define TILE 16

// The shared-window address of a pointer to shared memory (cvta.to.shared, PTX ISA
// §9.7.8.21): what cp.async takes as its destination.
__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    unsigned r;
    asm("{ .reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a; }" : "=r"(r) : "l"(p));
    return r;
}

// cp.async.ca.shared.global (PTX ISA §9.7.9.25.3.1): copies 4 bytes from global to
// shared memory without a register; with valid false it reads nothing (src-size 0) and
// writes 4 zero bytes. CUDA C++ spells it __pipeline_memcpy_async (cuda_pipeline.h).
__device__ __forceinline__ void cp_async4(float *dst, const float *src, bool valid)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(smem_addr(dst)), "l"(src),
                 "r"(valid ? 4 : 0)
                 : "memory");
}

// cp.async.commit_group: this thread's copies issued since the last commit form a group.
__device__ __forceinline__ void cp_async_commit()
{
    asm volatile("cp.async.commit_group;" ::: "memory");
}

// cp.async.wait_group N: waits until at most N of this thread's groups are pending
// (PTX ISA §9.7.9.25.3.3). It says nothing about other threads' copies.
template <int N> __device__ __forceinline__ void cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}

// (1) The synchronous tile loop: every element goes global -> register -> shared.
extern "C" __global__ void matmul_sync(const float *A, const float *B, float *C, int M, int N,
                                       int K)
{
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        As[ty][tx] = row < M && k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = k0 + ty < K && col < N ? B[(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

// (2) The same loop with cp.async: the copies bypass the registers, the thread waits for
// its own group, and the barrier makes every thread's copies visible to the block.
extern "C" __global__ void matmul_async(const float *A, const float *B, float *C, int M, int N,
                                        int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        bool a_in = row < M && k0 + tx < K, b_in = k0 + ty < K && col < N;
        cp_async4(&As[ty][tx], a_in ? &A[row * K + k0 + tx] : A, a_in);
        cp_async4(&Bs[ty][tx], b_in ? &B[(k0 + ty) * N + col] : B, b_in);
        cp_async_commit();
        cp_async_wait<0>();
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

// (3) Double buffering: tile t + 1 is copied into the other buffer while tile t is used.
// One group per tile; wait_group 1 leaves the newest group (tile t + 1) in flight.
__device__ __forceinline__ void load_tile(float (*As)[TILE], float (*Bs)[TILE], const float *A,
                                          const float *B, int M, int N, int K, int k0)
{
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    bool a_in = row < M && k0 + tx < K, b_in = k0 + ty < K && col < N;
    cp_async4(&As[ty][tx], a_in ? &A[row * K + k0 + tx] : A, a_in);
    cp_async4(&Bs[ty][tx], b_in ? &B[(k0 + ty) * N + col] : B, b_in);
}

extern "C" __global__ void matmul_double(const float *A, const float *B, float *C, int M, int N,
                                         int K)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    int tiles = (K + TILE - 1) / TILE;
    float acc = 0.0f;
    load_tile(As[0], Bs[0], A, B, M, N, K, 0);
    cp_async_commit();
    for (int t = 0; t < tiles; t++) {
        if (t + 1 < tiles) // prefetch tile t + 1 while tile t is used
            load_tile(As[(t + 1) & 1], Bs[(t + 1) & 1], A, B, M, N, K, (t + 1) * TILE);
        cp_async_commit();  // an empty group on the last tile keeps the count right
        cp_async_wait<1>(); // tile t has landed; tile t + 1 may still be in flight
        __syncthreads();    // ... and so has every other thread's part of tile t
        for (int k = 0; k < TILE; k++)
            acc += As[t & 1][ty][k] * Bs[t & 1][k][tx];
        __syncthreads(); // the next prefetch overwrites this buffer
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
