// Wrong: lane 0 of every warp adds its warp's sum with a plain partial[blockIdx.x] += v, a non-atomic read-modify-write of global memory that the block's 8 warps do concurrently.
__device__ int warp_sum(int v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

extern "C" __global__ void block_sum(const int *in, int *partial, int n)
{
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    int v = warp_sum(i < n ? in[i] : 0);
    if (t % 32 == 0)
        partial[blockIdx.x] += v;
}
