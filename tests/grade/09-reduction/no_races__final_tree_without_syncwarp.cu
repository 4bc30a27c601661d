// Wrong: a warp-synchronous tree without __syncwarp(): warp 0 halves the 8 warp sums in shared memory with no __syncwarp() between a step's reads and writes.
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
    if (t < 4)
        warps[t] += warps[t + 4];
    if (t < 2)
        warps[t] += warps[t + 2];
    if (t == 0)
        partial[blockIdx.x] = warps[0] + warps[1];
}
// expect-advice: Put __syncwarp() after line 18 and before line 20
// expect-no-advice: __syncthreads
