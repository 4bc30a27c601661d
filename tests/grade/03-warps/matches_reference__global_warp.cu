// Wrong: warp number counted across the whole grid, not within the block.
extern "C" __global__ void warp_lane(int *warp, int *lane)
{
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int g = blockIdx.x * (blockDim.x * blockDim.y) + t;
    warp[g] = g / 32;
    lane[g] = t % 32;
}
