// Wrong: the final warp_sum runs inside if (t < 8), so its __shfl_down_sync with a full mask reads lanes 8..31, which are not taking part (undefined).
__device__ int warp_sum(int v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
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
    if (t < 8) {
        v = warp_sum(warps[t]);
        if (t == 0)
            partial[blockIdx.x] = v;
    }
}
