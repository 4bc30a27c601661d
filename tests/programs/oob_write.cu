// An out-of-bounds write: the launch itself succeeds, cudaDeviceSynchronize returns the
// fault, and the error is sticky (every later call returns it). The index strides far
// past the allocation (256 KiB a thread), so that a GPU faults too: a few bytes past a
// small allocation lie in memory the GPU has mapped, and go unnoticed there.
#include <cstdio>

__global__ void write_past(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    p[(size_t)i * 65536] = i; // no bounds check against n: thread 1 on write past the end
}

int main(void)
{
    const int n = 1000;
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    write_past<<<4, 256>>>(d, n);
    printf("launch: %s\n", cudaGetErrorString(cudaGetLastError()));
    cudaError_t err = cudaDeviceSynchronize();
    printf("cudaDeviceSynchronize: %s (%s)\n", cudaGetErrorString(err), cudaGetErrorName(err));
    int h = 0;
    err = cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("cudaMemcpy after the fault: %s\n", cudaGetErrorName(err));
    printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
    printf("cudaGetLastError again: %s\n", cudaGetErrorName(cudaGetLastError()));
    return err == cudaSuccess ? 0 : 1;
}
