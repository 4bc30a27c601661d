// Step 1: memory on both sides. The host (CPU) and the device (GPU) have memory of their
// own; cudaMalloc allocates on the device, cudaMemcpy copies between the two.
#include <cstdio>

int main()
{
    const int n = 8;
    float host[n];
    for (int i = 0; i < n; i++)
        host[i] = i * 1.5f;

    float *dev = nullptr;                     // will point into device memory
    cudaMalloc(&dev, n * sizeof(float));      // n floats on the device
    cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice);

    float back[n] = {0};
    cudaMemcpy(back, dev, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(dev);                            // device memory is freed by hand

    for (int i = 0; i < n; i++)
        printf("%g ", back[i]);
    printf("\n");
    return 0;
}
