// Copies and sets that pass the end of a cudaMalloc'd allocation: refused with
// cudaErrorInvalidValue (CUDA Runtime API §6.10), nothing copied; one that ends exactly
// at the end succeeds.
#include <cstdio>

static const char *name(cudaError_t e)
{
    cudaGetLastError(); /* each call on its own */
    return cudaGetErrorName(e);
}

int main(void)
{
    char h[512] = {0};
    char *d, *e;
    cudaMalloc(&d, 128);
    cudaMalloc(&e, 128);
    printf("H2D of 256 bytes into 128: %s\n", name(cudaMemcpy(d, h, 256, cudaMemcpyHostToDevice)));
    printf("H2D of 128 bytes at offset 64: %s\n",
           name(cudaMemcpy(d + 64, h, 128, cudaMemcpyHostToDevice)));
    printf("D2H of 129 bytes: %s\n", name(cudaMemcpy(h, d, 129, cudaMemcpyDeviceToHost)));
    printf("D2D of 128 bytes to offset 16: %s\n",
           name(cudaMemcpy(e + 16, d, 128, cudaMemcpyDeviceToDevice)));
    printf("cudaMemset of 129 bytes: %s\n", name(cudaMemset(d, 1, 129)));
    printf("H2D of 64 bytes at offset 64: %s\n",
           name(cudaMemcpy(d + 64, h, 64, cudaMemcpyHostToDevice)));
    printf("cudaMemset of 128 bytes: %s\n", name(cudaMemset(d, 1, 128)));
    cudaFree(d);
    cudaFree(e);
    return 0;
}
