// Wrong: rounds the warp number up, (t + 31) / 32, as if counting warps instead of numbering them.
extern "C" __global__ void warp_lane(int *warp, int *lane)
{
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int g = blockIdx.x * (blockDim.x * blockDim.y) + t;
    warp[g] = (t + 31) / 32;
    lane[g] = t % 32;
}
