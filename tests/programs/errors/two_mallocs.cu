// Two cudaMalloc calls on one line: which of them made an allocation is not known from
// the line, so neither is named by a variable ('allocation #2', not 'a' for b's).
#include <cstdio>
__global__ void copy(int *out, const int *in) { out[threadIdx.x] = in[threadIdx.x]; }
int main()
{
    int *a, *b;
    cudaMalloc(&a, 256); cudaMalloc(&b, 256);
    copy<<<1, 64>>>(a, b); // b was never written: an uninitialised read of b
    printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(a);
    cudaFree(b);
    return 0;
}
