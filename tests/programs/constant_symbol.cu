// A __constant__ array set with cudaMemcpyToSymbol, and a __device__ counter read back
// with cudaMemcpyFromSymbol.
#include <cstdio>

__constant__ float coeff[4];
__device__ int calls;

__global__ void poly(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = coeff[0] + v * (coeff[1] + v * (coeff[2] + v * coeff[3]));
        atomicAdd(&calls, 1);
    }
}

int main(void)
{
    const int n = 8;
    float hx[n], hy[n], hc[4] = {1.0f, 2.0f, 0.5f, 0.25f};
    for (int i = 0; i < n; i++)
        hx[i] = (float)i;
    cudaMemcpyToSymbol(coeff, hc, sizeof hc);
    float *dx, *dy;
    cudaMalloc(&dx, sizeof hx);
    cudaMalloc(&dy, sizeof hy);
    cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice);
    poly<<<1, 32>>>(dx, dy, n);
    cudaMemcpy(hy, dy, sizeof hy, cudaMemcpyDeviceToHost);
    int c = 0;
    cudaMemcpyFromSymbol(&c, calls, sizeof c);
    for (int i = 0; i < n; i++)
        printf("y[%d] = %.2f\n", i, hy[i]);
    printf("calls = %d\n", c);
    cudaError_t err = cudaMemcpyToSymbol(coeff, hc, 2 * sizeof hc);
    printf("copy past the symbol: %s\n", cudaGetErrorName(err));
    cudaFree(dx);
    cudaFree(dy);
    return 0;
}
