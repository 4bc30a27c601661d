// Wrong: half fixed, the warp uses the linear id but the lane still uses threadIdx.x alone.
extern "C" __global__ void warp_lane(int *warp, int *lane)
{
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int g = blockIdx.x * (blockDim.x * blockDim.y) + t;
    warp[g] = t / 32;
    lane[g] = threadIdx.x % 32;
}
