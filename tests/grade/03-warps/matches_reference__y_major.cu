// Wrong: linear id with y fastest.
extern "C" __global__ void warp_lane(int *warp, int *lane)
{
    int t = threadIdx.x * blockDim.y + threadIdx.y;
    int g = blockIdx.x * (blockDim.x * blockDim.y) + threadIdx.y * blockDim.x + threadIdx.x;
    warp[g] = t / 32;
    lane[g] = t % 32;
}
