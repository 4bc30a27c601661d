// Step 5: timing with events. An event is a mark in the GPU's stream of work; the time
// between two recorded events is the GPU's time for what lies between them.
#include <cstdio>

__global__ void scale(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = a * x[i];
}

int main()
{
    const int n = 1 << 16;
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    cudaMemset(x, 0, n * sizeof(float));

    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    scale<<<(n + 255) / 256, 256>>>(x, 2.0f, n);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);               // wait until stop has happened

    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    printf("scale of %d floats: %.3f ms (%.1f GB/s)\n", n, ms, 2.0 * n * sizeof(float) / ms / 1e6);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(x);
    return 0;
}
