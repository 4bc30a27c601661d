// Wrong: the output index uses blockDim.y as the row stride (threadIdx.y * blockDim.y), so rows land outside the block's part of the outputs, past the end for the last block.
extern "C" __global__ void warp_lane(int *warp, int *lane)
{
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int g = blockIdx.x * (blockDim.x * blockDim.y) + threadIdx.y * blockDim.y + threadIdx.x;
    warp[g] = t / 32;
    lane[g] = t % 32;
}
