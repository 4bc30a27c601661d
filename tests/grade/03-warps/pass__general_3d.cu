// Right: the general 3D formula (z, then y, then x), unsigned arithmetic, and the block offset from the block's thread count.
extern "C" __global__ void warp_lane(int *warp, int *lane)
{
    unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    unsigned g = blockIdx.x * threads + t;
    warp[g] = t / warpSize;
    lane[g] = t % warpSize;
}
