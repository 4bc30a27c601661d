// bench/programs.c's overhead program: a trivial kernel between the API calls a course's
// first program makes (allocate, copy in, launch, synchronise, copy out, free), so that
// nearly all of its time is gpulearn's overhead: start, the calls, the copies.
#include <cstdio>

__global__ void add_one(int *x) { x[threadIdx.x] += 1; }

int main(void)
{
    int h[32], *d;
    for (int i = 0; i < 32; i++)
        h[i] = i;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    add_one<<<1, 32>>>(d);
    cudaDeviceSynchronize();
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaFree(d);
    printf("h[31] = %d\n", h[31]);
    return h[31] == 32 ? 0 : 1;
}
