// A kernel that prints more than the device's printf buffer holds (1 MiB, the default
// cudaLimitPrintfFifoSize): 4096 threads, 400 bytes each. A GPU drops what does not fit;
// gpulearn drops it too, and says so on stderr.
#include <cstdio>

__global__ void chatty(void)
{
    printf("thread %4d: %0380d\n", blockIdx.x * blockDim.x + threadIdx.x, 0);
}

int main(void)
{
    chatty<<<16, 256>>>();
    printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
