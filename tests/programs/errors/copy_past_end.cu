// cudaMemcpy past an allocation's end: gpulearn names the call's line, the allocation
// (its variable and cudaMalloc's line) and by how much (tests/programs.sh checks).
#include <cstdio>

int main(void)
{
    float h[64] = {0}, *d;
    cudaMalloc(&d, 32 * sizeof(float));
    cudaError_t e = cudaMemcpy(h, d + 8, 32 * sizeof(float), cudaMemcpyDeviceToHost);
    printf("%s\n", cudaGetErrorName(e));
    cudaFree(d);
    return 0;
}
