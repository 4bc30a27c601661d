// Wrong: off by one in the lane, t % 31 instead of t % 32.
extern "C" __global__ void warp_lane(int *warp, int *lane)
{
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int g = blockIdx.x * (blockDim.x * blockDim.y) + t;
    warp[g] = t / 32;
    lane[g] = t % 31;
}
