// The occupancy calls and cudaFuncGetAttributes on three kernels whose registers set no
// limit (a few each, far under the 32 a thread that keep 2048 threads resident): the
// CUDA Occupancy Calculator's limits of warps, blocks per SM and shared memory
// (static + dynamic + the driver's 1 KiB reserve per block, in 128-byte units, in an
// H100/H200 SM's 228 KiB), __launch_bounds__, and the dynamic shared memory opt-in.
#include <cstdio>

__global__ void light(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

__global__ void tiled(float *x)
{
    __shared__ float tile[1024]; // 4096 bytes of static shared memory
    extern __shared__ float more[];
    tile[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    more[threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = more[(threadIdx.x + 1) % blockDim.x];
}

__global__ void __launch_bounds__(256) bounded(float *x)
{
    x[threadIdx.x] += 1.0f;
}

static void blocks(const char *what, const void *f, int threads, size_t dynamic)
{
    int n = -1;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, threads, dynamic);
    printf("%s, %d threads, %zu dynamic bytes: %d blocks per SM (%s)\n", what, threads, dynamic,
           n, cudaGetErrorName(e));
}

int main(void)
{
    cudaFuncAttributes a;
    cudaError_t e = cudaFuncGetAttributes(&a, tiled);
    printf("tiled: %s, sharedSizeBytes %zu, maxDynamicSharedSizeBytes %d, maxThreadsPerBlock %d, "
           "binaryVersion %d, registers %s\n",
           cudaGetErrorName(e), a.sharedSizeBytes, a.maxDynamicSharedSizeBytes,
           a.maxThreadsPerBlock, a.binaryVersion, a.numRegs > 0 && a.numRegs <= 32 ? "1 to 32" : "?");
    e = cudaFuncGetAttributes(&a, bounded);
    printf("bounded: %s, maxThreadsPerBlock %d\n", cudaGetErrorName(e), a.maxThreadsPerBlock);
    e = cudaFuncGetAttributes(&a, (const void *)blocks);
    printf("a host function: %s\n", cudaGetErrorName(e));

    blocks("light", (const void *)light, 32, 0);
    blocks("light", (const void *)light, 256, 0);
    blocks("light", (const void *)light, 1000, 0);
    blocks("light", (const void *)light, 1024, 0);
    blocks("light", (const void *)light, 1025, 0);
    blocks("tiled", (const void *)tiled, 256, 0);
    blocks("tiled", (const void *)tiled, 256, 40000);
    blocks("tiled", (const void *)tiled, 256, 45056);
    blocks("tiled", (const void *)tiled, 256, 45057);
    e = cudaFuncSetAttribute(tiled, cudaFuncAttributeMaxDynamicSharedMemorySize, 150000);
    cudaFuncGetAttributes(&a, tiled);
    printf("tiled opted in to 150000 bytes: %s, maxDynamicSharedSizeBytes %d\n",
           cudaGetErrorName(e), a.maxDynamicSharedSizeBytes);
    blocks("tiled", (const void *)tiled, 256, 100000);
    blocks("tiled", (const void *)tiled, 256, 150000);
    blocks("tiled", (const void *)tiled, 256, 150001);

    int grid = -1, block = -1;
    e = cudaOccupancyMaxPotentialBlockSize(&grid, &block, light);
    printf("light: potential block size %d, min grid %d (%s)\n", block, grid, cudaGetErrorName(e));
    e = cudaOccupancyMaxPotentialBlockSize(&grid, &block, tiled, 150000);
    printf("tiled, 150000 dynamic bytes: potential block size %d, min grid %d (%s)\n", block, grid,
           cudaGetErrorName(e));
    e = cudaOccupancyMaxPotentialBlockSize(&grid, &block, bounded, 0, 200);
    printf("bounded, limit 200: potential block size %d, min grid %d (%s)\n", block, grid,
           cudaGetErrorName(e));
    e = cudaOccupancyMaxPotentialBlockSize(&grid, &block, bounded);
    printf("bounded: potential block size %d, min grid %d (%s)\n", block, grid, cudaGetErrorName(e));
    return 0;
}
