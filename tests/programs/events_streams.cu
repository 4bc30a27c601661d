// Streams, pinned memory, cudaMemset, cudaMemcpyAsync and events timing a kernel.
#include <cstdio>

__global__ void scale(float *x, float a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        x[i] = a * x[i] + 1.0f;
}

int main(void)
{
    const int n = 4096;
    float *h, *d;
    cudaMallocHost(&h, n * sizeof(float));
    cudaMalloc(&d, n * sizeof(float));
    for (int i = 0; i < n; i++)
        h[i] = (float)i;
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaMemset(d, 0, n * sizeof(float));
    cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
    cudaEventRecord(start, s);
    scale<<<8, 128, 0, s>>>(d, 2.0f, n);
    cudaEventRecord(stop, s);
    cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    cudaEventSynchronize(stop);
    float ms = 0.0f;
    cudaError_t err = cudaEventElapsedTime(&ms, start, stop);
    printf("elapsed: %s, more than 0: %s\n", cudaGetErrorName(err), ms > 0.0f ? "yes" : "no");
    printf("h[0] = %.1f, h[1] = %.1f, h[4095] = %.1f\n", h[0], h[1], h[n - 1]);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaStreamDestroy(s);
    cudaFree(d);
    cudaFreeHost(h);
    printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
