// Right: the warp and lane from a shift and a mask (t >> 5, t & 31) instead of / and %.
extern "C" __global__ void warp_lane(int *warp, int *lane)
{
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int g = blockIdx.x * (blockDim.x * blockDim.y) + t;
    warp[g] = t >> 5;
    lane[g] = t & 31;
}
