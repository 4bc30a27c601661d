// Histogram of values 0..15 with one global atomic per element: every block's
// threads contend for the same 16 addresses.
extern "C" __global__ void hist_global(const int *data, int *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[data[i]], 1);
}

// Privatized: each block counts in shared memory, then adds its 16 counts to global
// memory once (PMPP ch. 9).
extern "C" __global__ void hist_private(const int *data, int *bins, int n)
{
    __shared__ int local[16];
    if (threadIdx.x < 16)
        local[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&local[data[i]], 1);
    __syncthreads();
    if (threadIdx.x < 16 && local[threadIdx.x] != 0)
        atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
