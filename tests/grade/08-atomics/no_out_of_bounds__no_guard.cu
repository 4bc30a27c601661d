// Wrong: no i < n guard on the count, so the last block reads data past n.
extern "C" __global__ void histogram(const int *data, int *bins, int n)
{
    __shared__ int local[16];
    if (threadIdx.x < 16)
        local[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&local[data[i]], 1);
    __syncthreads();
    if (threadIdx.x < 16 && local[threadIdx.x] != 0)
        atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
