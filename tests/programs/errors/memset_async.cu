// cudaMemset, cudaMemsetAsync and cudaMemcpyAsync refused: gpulearn names each call's
// line (built with clang: cudart's cuda_runtime.h passes it on), as for cudaMemcpy
// (tests/programs.sh checks).
#include <cstdio>

int main(void)
{
    float h[64] = {0}, *d;
    cudaMalloc(&d, 32 * sizeof(float));
    cudaError_t a = cudaMemset(d, 0, 33 * sizeof(float));
    cudaError_t b = cudaMemsetAsync(h, 0, sizeof h);
    cudaError_t c = cudaMemcpyAsync(h, d + 8, 32 * sizeof(float), cudaMemcpyDeviceToHost, 0);
    printf("%s %s %s\n", cudaGetErrorName(a), cudaGetErrorName(b), cudaGetErrorName(c));
    cudaFree(d);
    return 0;
}
