// Right: a butterfly with __shfl_xor_sync, so every lane ends with its warp's sum, and warp 0 combines the 8 warp sums the same way.
__device__ int warp_sum(int v)
{
    for (int m = 1; m < 32; m <<= 1)
        v += __shfl_xor_sync(0xffffffffu, v, m);
    return v;
}

extern "C" __global__ void block_sum(const int *in, int *partial, int n)
{
    __shared__ int warps[8];
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    int v = warp_sum(i < n ? in[i] : 0);
    if ((t & 31) == 0)
        warps[t >> 5] = v;
    __syncthreads();
    if (t < 32) {
        v = warp_sum(t < 8 ? warps[t] : 0);
        if (t == 0)
            partial[blockIdx.x] = v;
    }
}
