// Wrong: off by one step in the shuffle loop (off starts at 8, not 16), so each warp sums only lanes 0..15.
__device__ int warp_sum(int v)
{
    for (int off = 8; off > 0; off >>= 1)
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
    if (t < 32) {
        v = warp_sum(t < 8 ? warps[t] : 0);
        if (t == 0)
            partial[blockIdx.x] = v;
    }
}
