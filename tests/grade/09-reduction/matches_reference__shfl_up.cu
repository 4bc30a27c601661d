// Wrong: __shfl_up_sync instead of __shfl_down_sync, so the warp's sum ends in lane 31, but lane 0 still stores it.
__device__ int warp_sum(int v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_up_sync(0xffffffffu, v, off);
    return v;
}

extern "C" __global__ void block_sum(const int *in, int *partial, int n)
{
    __shared__ int warps[8];
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    int v = warp_sum(i < n ? in[i] : 0);
    if (t % 32 == 0)
        warps[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        v = warp_sum(t < 8 ? warps[t] : 0);
        if (t == 0)
            partial[blockIdx.x] = v;
    }
}
