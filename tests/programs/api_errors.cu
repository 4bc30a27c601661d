// Runtime calls that fail with an error code, as on a GPU: dynamic shared memory past
// 48 KiB without the kernel's opt-in, a copy past an allocation's end, a double free;
// and pitched 2D memory.
#include <cstdio>

__global__ void reverse(float *p)
{
    extern __shared__ float s[];
    s[threadIdx.x] = p[threadIdx.x];
    __syncthreads();
    p[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

int main(void)
{
    float h[32], *d;
    for (int i = 0; i < 32; i++)
        h[i] = (float)i;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    reverse<<<1, 32, 64 * 1024>>>(d);
    printf("64 KiB of dynamic shared memory: %s\n", cudaGetErrorName(cudaGetLastError()));
    cudaError_t err =
        cudaFuncSetAttribute(reverse, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
    printf("opt in: %s\n", cudaGetErrorName(err));
    reverse<<<1, 32, 64 * 1024>>>(d);
    printf("64 KiB after opting in: %s\n", cudaGetErrorName(cudaGetLastError()));
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("h[0] = %.0f, h[31] = %.0f\n", h[0], h[31]);

    float big[64];
    err = cudaMemcpy(big, d, sizeof big, cudaMemcpyDeviceToHost);
    printf("copy of 256 bytes from a 128-byte allocation: %s\n", cudaGetErrorName(err));
    cudaError_t first = cudaGetLastError(), second = cudaGetLastError();
    printf("cudaGetLastError: %s, then %s\n", cudaGetErrorName(first), cudaGetErrorName(second));

    printf("cudaFree: %s\n", cudaGetErrorName(cudaFree(d)));
    printf("cudaFree again: %s\n", cudaGetErrorName(cudaFree(d)));
    cudaGetLastError();

    int *m;
    size_t pitch = 0;
    const int w = 10, rows = 3;
    int src[rows][w], back[rows][w];
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < w; c++)
            src[r][c] = 100 * r + c;
    cudaMallocPitch(&m, &pitch, w * sizeof(int), rows);
    printf("pitch holds a row: %s\n", pitch >= w * sizeof(int) ? "yes" : "no");
    cudaMemcpy2D(m, pitch, src, w * sizeof(int), w * sizeof(int), rows, cudaMemcpyHostToDevice);
    cudaMemcpy2D(back, w * sizeof(int), m, pitch, w * sizeof(int), rows, cudaMemcpyDeviceToHost);
    printf("back[2][9] = %d, last error: %s\n", back[2][9], cudaGetErrorName(cudaGetLastError()));
    cudaFree(m);
    return 0;
}
