// Wrong: the block offset in the output index is blockIdx.x * blockDim.x * blockDim.x (the row length squared) instead of the block's thread count, so blocks overlap or run past the end.
extern "C" __global__ void warp_lane(int *warp, int *lane)
{
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int g = blockIdx.x * (blockDim.x * blockDim.x) + t;
    warp[g] = t / 32;
    lane[g] = t % 32;
}
