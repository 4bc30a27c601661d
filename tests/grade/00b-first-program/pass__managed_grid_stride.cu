// Right, and unlike the reference: unified memory and a grid-stride loop.
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                     \
    do {                                                                                \
        cudaError_t err_ = (call);                                                      \
        if (err_ != cudaSuccess) {                                                      \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
            exit(EXIT_FAILURE);                                                         \
        }                                                                               \
    } while (0)

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s N SEED\n", argv[0]);
        return 2;
    }
    const int n = atoi(argv[1]);
    unsigned seed = (unsigned)strtoul(argv[2], NULL, 10);
    const float a = 2.0f;
    float *x, *y;
    CHECK(cudaMallocManaged(&x, n * sizeof(float)));
    CHECK(cudaMallocManaged(&y, n * sizeof(float)));
    for (int i = 0; i < n; i++) { // small whole numbers: every sum is exact
        seed = seed * 1103515245u + 12345u;
        x[i] = (float)((seed >> 16) % 100);
        seed = seed * 1103515245u + 12345u;
        y[i] = (float)((seed >> 16) % 100);
    }
    saxpy<<<64, 128>>>(n, a, x, y); // a fixed grid: the loop covers any n
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += y[i];
    printf("y[0] = %.1f, y[%d] = %.1f\n", y[0], n - 1, y[n - 1]);
    printf("sum = %.1f\n", sum);

    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    return 0;
}
