// Wrong: divides by 32 with a shift by 4 (that is a division by 16).
extern "C" __global__ void warp_lane(int *warp, int *lane)
{
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int g = blockIdx.x * (blockDim.x * blockDim.y) + t;
    warp[g] = t >> 4;
    lane[g] = t & 31;
}
