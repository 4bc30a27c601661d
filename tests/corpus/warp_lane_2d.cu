// Warp and lane ids in a 2D block: linear thread id, warp = lin / warpSize, lane = lin % warpSize.
extern "C" __global__ void warp_lane_2d(int *warp, int *lane, int *lin_out)
{
    int lin = threadIdx.y * blockDim.x + threadIdx.x;
    int g = blockIdx.x * blockDim.x * blockDim.y + lin;
    warp[g] = lin / warpSize + 10 * blockIdx.x;
    lane[g] = lin % warpSize;
    lin_out[g] = lin;
}
