// bench/programs.c's memory program: cudaMalloc of argv[1] MiB (0: nothing), cudaMemset
// of all of it, and a kernel writing one int in every 4 KiB of it; its peak RSS against
// the same program's with 0 MiB is what device memory costs gpulearn.
#include <cstdio>
#include <cstdlib>

__global__ void touch(int *p, size_t ints)
{
    for (size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * 1024; i < ints;
         i += (size_t)gridDim.x * blockDim.x * 1024)
        p[i] = (int)i;
}

int main(int argc, char **argv)
{
    const size_t bytes = (size_t)(argc > 1 ? atol(argv[1]) : 1024) << 20;
    int *d = NULL;
    if (bytes && (cudaMalloc(&d, bytes) != cudaSuccess || cudaMemset(d, 0, bytes) != cudaSuccess))
        return 2;
    touch<<<64, 256>>>(d, bytes / sizeof(int));
    int last = -1;
    if (cudaDeviceSynchronize() != cudaSuccess ||
        (bytes && cudaMemcpy(&last, d + (bytes / sizeof(int) - 1024), sizeof last,
                             cudaMemcpyDeviceToHost) != cudaSuccess))
        return 1;
    cudaFree(d);
    printf("%zu MiB, last page's int %d\n", bytes >> 20, last);
    return 0;
}
