// Step 2: a launch. The kernel runs on the device in n threads; the host waits for it
// with cudaDeviceSynchronize before it copies the result back.
#include <cstdio>

__global__ void square(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * x[i];
}

int main()
{
    const int n = 1000;
    float host[n];
    for (int i = 0; i < n; i++)
        host[i] = i;

    float *dev;
    cudaMalloc(&dev, n * sizeof(float));
    cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice);

    int threads = 256;
    int blocks = (n + threads - 1) / threads;     // 4 blocks: 1024 threads for 1000 elements
    square<<<blocks, threads>>>(dev, n);          // returns at once: the GPU works on
    cudaDeviceSynchronize();                      // wait until the kernel has finished

    cudaMemcpy(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(dev);
    printf("%d blocks of %d threads\n", blocks, threads);
    printf("x[3] = %g, x[999] = %g\n", host[3], host[999]);
    return 0;
}
