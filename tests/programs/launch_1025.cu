// A launch of 1025 threads per block: the launch fails and cudaGetLastError says why.
#include <cstdio>

__global__ void fill(int *p)
{
    p[threadIdx.x] = threadIdx.x;
}

int main(void)
{
    int *d;
    cudaMalloc(&d, 1025 * sizeof(int));
    fill<<<1, 1025>>>(d);
    cudaError_t err = cudaGetLastError();
    printf("launch: %s (%s)\n", cudaGetErrorString(err), cudaGetErrorName(err));
    printf("after cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
    fill<<<1, 1024>>>(d);
    err = cudaDeviceSynchronize();
    printf("1024 threads: %s\n", cudaGetErrorString(err));
    cudaFree(d);
    return 0;
}
