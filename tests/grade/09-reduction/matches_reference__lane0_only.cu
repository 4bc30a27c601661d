// Wrong: only warp 0's sum is written.
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
    if (t == 0)
        partial[blockIdx.x] = v;
}
