// Wrong: assumes each row of the block (threadIdx.y) is one warp.
extern "C" __global__ void warp_lane(int *warp, int *lane)
{
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int g = blockIdx.x * (blockDim.x * blockDim.y) + t;
    warp[g] = threadIdx.y;
    lane[g] = t % 32;
}
