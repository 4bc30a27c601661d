// Step 4: unified memory and a grid-stride loop. cudaMallocManaged gives one pointer that
// host and device code both use; the kernel's loop lets a fixed grid cover any n.
#include <cmath>
#include <cstdio>

__global__ void add(int n, const float *x, float *y)
{
    int stride = blockDim.x * gridDim.x;     // threads in the whole grid
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = x[i] + y[i];
}

int main()
{
    const int n = 1 << 16;
    float *x, *y;
    cudaMallocManaged(&x, n * sizeof(float));
    cudaMallocManaged(&y, n * sizeof(float));
    for (int i = 0; i < n; i++) {            // the host writes them directly
        x[i] = 1.0f;
        y[i] = 2.0f;
    }
    add<<<32, 256>>>(n, x, y);               // 8192 threads, 8 elements each
    cudaDeviceSynchronize();                 // before the host reads y

    float max_error = 0.0f;
    for (int i = 0; i < n; i++)
        max_error = fmaxf(max_error, fabsf(y[i] - 3.0f));
    printf("max error: %g\n", max_error);
    cudaFree(x);
    cudaFree(y);
    return 0;
}
