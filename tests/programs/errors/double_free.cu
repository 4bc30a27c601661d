// cudaFree twice, into an allocation, of host memory: gpulearn names the call's line,
// the allocation and where it was freed (tests/programs.sh checks the messages).
#include <cstdio>

int main(void)
{
    int *d, *e, local = 0;
    cudaMalloc(&d, 256);
    cudaMalloc(&e, 64);
    cudaFree(d);
    cudaError_t again = cudaFree(d);
    cudaError_t inside = cudaFree(e + 4);
    cudaError_t host = cudaFree(&local);
    printf("%s %s %s\n", cudaGetErrorName(again), cudaGetErrorName(inside), cudaGetErrorName(host));
    cudaFree(e);
    return 0;
}
