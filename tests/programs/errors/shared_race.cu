// A shared-memory race (no __syncthreads() between the store and the load): the program
// runs to its end, and gpulearn reports the race on stderr with both lines.
#include <cstdio>
__global__ void r(int *out) { __shared__ int s[64]; s[threadIdx.x] = threadIdx.x; out[threadIdx.x] = s[63 - threadIdx.x]; }
int main() { int *d; cudaMalloc(&d, 256); r<<<1, 64>>>(d); printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize())); cudaFree(d); return 0; }
