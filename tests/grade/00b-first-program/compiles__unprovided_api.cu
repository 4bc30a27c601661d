// Wrong: calls cudaGraphCreate, which gpulearn's CUDA runtime does not provide.
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
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
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
    float *x = (float *)malloc(n * sizeof(float)), *y = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) { // small whole numbers: every sum is exact
        seed = seed * 1103515245u + 12345u;
        x[i] = (float)((seed >> 16) % 100);
        seed = seed * 1103515245u + 12345u;
        y[i] = (float)((seed >> 16) % 100);
    }

    float *dx, *dy;
    CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CHECK(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice));

    const int threads = 256, blocks = (n + threads - 1) / threads;
    saxpy<<<blocks, threads>>>(n, a, dx, dy);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    cudaGraph_t graph;
    CHECK(cudaGraphCreate(&graph, 0)); // not provided by gpulearn's CUDA runtime
    CHECK(cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost));

    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += y[i];
    printf("y[0] = %.1f, y[%d] = %.1f\n", y[0], n - 1, y[n - 1]);
    printf("sum = %.1f\n", sum);

    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));
    free(x);
    free(y);
    return 0;
}
