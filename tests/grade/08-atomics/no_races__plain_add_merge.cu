// Wrong: the blocks merge their counts with a plain bins[b] += local[b], a non-atomic read-modify-write of global memory that other blocks do at the same time.
extern "C" __global__ void histogram(const int *data, int *bins, int n)
{
    __shared__ int local[16];
    if (threadIdx.x < 16)
        local[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&local[data[i]], 1);
    __syncthreads();
    if (threadIdx.x < 16)
        bins[threadIdx.x] += local[threadIdx.x];
}
// expect-advice: __syncthreads() orders only the threads of one block
// expect-advice: combine the blocks' results in a second launch
// expect-no-advice: Put __syncthreads()
