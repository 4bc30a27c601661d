// Right: each warp sums with __reduce_add_sync (redux.sync, sm_80+) instead of a shuffle tree.
extern "C" __global__ void block_sum(const int *in, int *partial, int n)
{
    __shared__ int warps[8];
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    int v = __reduce_add_sync(0xffffffffu, i < n ? in[i] : 0);
    if (t % 32 == 0)
        warps[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        v = __reduce_add_sync(0xffffffffu, t < 8 ? warps[t] : 0);
        if (t == 0)
            partial[blockIdx.x] = v;
    }
}
