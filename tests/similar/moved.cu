// Reduction: the kernel first, its helpers after it.
__device__ int warp_reduce(int value);
__device__ int load_or_zero(const int *in, int index, int n);

extern "C" __global__ void block_sum(const int *in, int *partial, int n)
{
    __shared__ int sums[8];
    int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int value = warp_reduce(load_or_zero(in, index, n));
    if (lane == 0)
        sums[warp] = value;
    __syncthreads();
    if (warp == 0) {
        value = lane < blockDim.x / warpSize ? sums[lane] : 0;
        value = warp_reduce(value);
        if (lane == 0)
            partial[blockIdx.x] = value;
    }
}

__device__ int load_or_zero(const int *in, int index, int n)
{
    return index < n ? in[index] : 0;
}

__device__ int warp_reduce(int value)
{
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        value += __shfl_down_sync(0xffffffffu, value, offset);
    return value;
}
