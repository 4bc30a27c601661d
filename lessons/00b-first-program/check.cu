// Step 3: check every call. A CUDA call returns a cudaError_t; a launch returns nothing,
// so its error is read with cudaGetLastError. CHECK stops the program at the first error,
// naming the file and line.
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                     \
    do {                                                                                \
        cudaError_t err_ = (call);                                                      \
        if (err_ != cudaSuccess) {                                                      \
            fprintf(stderr, "%s:%d: %s (%s)\n", __FILE__, __LINE__,                     \
                    cudaGetErrorString(err_), cudaGetErrorName(err_));                  \
            exit(EXIT_FAILURE);                                                         \
        }                                                                               \
    } while (0)

__global__ void fill(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = i;
}

int main()
{
    const int n = 1025;
    int *dev;
    CHECK(cudaMalloc(&dev, n * sizeof(int)));
    printf("launching 1 block of %d threads\n", n);
    fill<<<1, n>>>(dev, n);              // a block holds at most 1024 threads
    CHECK(cudaGetLastError());           // the launch's error: stops here
    CHECK(cudaDeviceSynchronize());      // errors while the kernel ran come back here
    printf("done\n");
    CHECK(cudaFree(dev));
    return 0;
}
