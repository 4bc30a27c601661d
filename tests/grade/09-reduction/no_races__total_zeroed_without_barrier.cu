// Wrong: thread 0 zeroes the shared total and lane 0 of each warp atomically adds to it, with no barrier between the zeroing and the adds.
__device__ int warp_sum(int v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

extern "C" __global__ void block_sum(const int *in, int *partial, int n)
{
    __shared__ int total;
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    if (t == 0)
        total = 0;
    int v = warp_sum(i < n ? in[i] : 0);
    if (t % 32 == 0)
        atomicAdd(&total, v);
    __syncthreads();
    if (t == 0)
        partial[blockIdx.x] = total;
}
