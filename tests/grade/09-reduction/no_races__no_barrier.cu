// Wrong: warp 0 reads the warp sums without waiting for the other warps.
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
    if (t < 32) {
        v = warp_sum(t < 8 ? warps[t] : 0);
        if (t == 0)
            partial[blockIdx.x] = v;
    }
}
// expect-advice: Put __syncthreads() after line 14 and before line 16
// expect-no-advice: __syncwarp
