// Wrong: threads 0..15 merge before the other warps have counted.
extern "C" __global__ void histogram(const int *data, int *bins, int n)
{
    __shared__ int local[16];
    if (threadIdx.x < 16)
        local[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&local[data[i]], 1);
    if (threadIdx.x < 16)
        atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
