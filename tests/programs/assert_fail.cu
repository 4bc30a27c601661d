// A failed device assert(): the next synchronising call returns cudaErrorAssert.
#include <cassert>
#include <cstdio>

__global__ void check_positive(const int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        assert(v[i] > 0);
}

int main(void)
{
    int h[8] = {1, 2, 3, 4, -5, 6, 7, 8}, *d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    check_positive<<<1, 8>>>(d, 8);
    cudaError_t err = cudaDeviceSynchronize();
    printf("cudaDeviceSynchronize: %s\n", cudaGetErrorName(err));
    return err == cudaSuccess ? 0 : 1;
}
