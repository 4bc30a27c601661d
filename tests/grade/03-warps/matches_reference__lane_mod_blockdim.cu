// Wrong: the lane is taken modulo blockDim.x (the row) instead of 32.
extern "C" __global__ void warp_lane(int *warp, int *lane)
{
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int g = blockIdx.x * (blockDim.x * blockDim.y) + t;
    warp[g] = t / 32;
    lane[g] = t % blockDim.x;
}
