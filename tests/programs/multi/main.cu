// A program of two .cu files and a host-only .cpp: each .cu registers its own kernels.
#include <cstdio>

void launch_scale(int *d, int n);
int host_sum(const int *v, int n);

__global__ void iota(int *d)
{
    d[threadIdx.x] = threadIdx.x;
}

int main(void)
{
    int *d, h[4];
    cudaMalloc(&d, sizeof h);
    iota<<<1, 4>>>(d);
    launch_scale(d, 4);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("%d %d %d %d (sum %d)\n", h[0], h[1], h[2], h[3], host_sum(h, 4));
    char line[64];
    if (fgets(line, sizeof line, stdin))
        printf("stdin: %s", line);
    cudaFree(d);
    return 0;
}
