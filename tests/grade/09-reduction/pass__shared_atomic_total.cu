// Right: lane 0 of each warp adds its shuffled warp sum to a shared total with atomicAdd (zeroed before a barrier) instead of storing warp sums for a second shuffle round.
extern "C" __global__ void block_sum(const int *in, int *partial, int n)
{
    __shared__ int total;
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    if (t == 0)
        total = 0;
    __syncthreads();
    int v = i < n ? in[i] : 0;
#pragma unroll
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if (t % 32 == 0)
        atomicAdd(&total, v);
    __syncthreads();
    if (t == 0)
        partial[blockIdx.x] = total;
}
