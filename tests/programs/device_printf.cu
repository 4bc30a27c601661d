// Device printf: written at the next synchronising call, after the host's own output.
#include <cstdio>

__global__ void hello(int base)
{
    printf("hello from thread %d, value %d\n", threadIdx.x, base + threadIdx.x);
}

int main(void)
{
    hello<<<1, 4>>>(100);
    printf("host: kernel launched\n");
    fflush(stdout);
    cudaDeviceSynchronize();
    printf("host: synchronised\n");
    return 0;
}
