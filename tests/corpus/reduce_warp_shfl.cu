// Reduction 5 (warp shuffle): __shfl_down_sync within each warp, warp sums in shared, first warp finishes.
__device__ float warp_sum(float v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}
extern "C" __global__ void reduce_warp_shfl(const float *in, float *partial, int n)
{
    __shared__ float warps[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    float v = warp_sum(i < n ? in[i] : 0.0f);
    if (lane == 0)
        warps[w] = v;
    __syncthreads();
    if (w == 0) {
        v = lane < (int)(blockDim.x / 32) ? warps[lane] : 0.0f;
        v = warp_sum(v);
        if (lane == 0)
            partial[blockIdx.x] = v;
    }
}
