// Which error each illegal launch configuration gives (CUDA Runtime API cudaLaunchKernel;
// the limits of compute capability 9.0: 1024 threads a block, block dimensions 1024 x
// 1024 x 64, grid 2^31-1 x 65535 x 65535, 48 KiB of dynamic shared memory without the
// opt-in): each launch's cudaGetLastError, then a good launch.
#include <cstdio>

__global__ void k(int *p)
{
    if (p)
        p[0] = 1;
}

static void show(const char *what)
{
    cudaError_t e = cudaGetLastError();
    printf("%-28s %s\n", what, cudaGetErrorName(e));
}

int main(void)
{
    k<<<1, 1025>>>(nullptr);
    show("block (1025,1,1)");
    k<<<1, dim3(32, 33)>>>(nullptr);
    show("block (32,33,1)");
    k<<<1, dim3(1, 1, 65)>>>(nullptr);
    show("block (1,1,65)");
    k<<<1, dim3(1, 1025)>>>(nullptr);
    show("block (1,1025,1)");
    k<<<1, 0>>>(nullptr);
    show("block (0,1,1)");
    k<<<0, 32>>>(nullptr);
    show("grid (0,1,1)");
    k<<<dim3(1, 65536), 32>>>(nullptr);
    show("grid (1,65536,1)");
    k<<<1, 32, 49 * 1024>>>(nullptr);
    show("49 KiB dynamic shared");
    k<<<1, 32>>>(nullptr);
    show("good launch");
    printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
