// Right: vector loads, the first 64 threads each load four ints as one int4 (scalars at the ragged end) and the first two warps reduce them with shuffles.
__device__ int warp_sum(int v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

extern "C" __global__ void block_sum(const int *in, int *partial, int n)
{
    __shared__ int warps[2];
    int t = threadIdx.x;
    if (t < 64) {
        int j = blockIdx.x * 256 + 4 * t;
        int v = 0;
        if (j + 3 < n) {
            int4 q = reinterpret_cast<const int4 *>(in)[j / 4];
            v = q.x + q.y + q.z + q.w;
        } else {
            for (int k = j; k < n && k < j + 4; k++)
                v += in[k];
        }
        v = warp_sum(v);
        if (t % 32 == 0)
            warps[t / 32] = v;
    }
    __syncthreads();
    if (t == 0)
        partial[blockIdx.x] = warps[0] + warps[1];
}
