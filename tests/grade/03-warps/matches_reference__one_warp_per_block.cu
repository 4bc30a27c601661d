// Wrong: assumes a block never has more than 32 threads, so the warp is always 0 and the lane is the linear id.
extern "C" __global__ void warp_lane(int *warp, int *lane)
{
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int g = blockIdx.x * (blockDim.x * blockDim.y) + t;
    warp[g] = 0;
    lane[g] = t;
}
