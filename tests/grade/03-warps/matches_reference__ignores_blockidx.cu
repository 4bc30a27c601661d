// Wrong: one-block-only code, the output index leaves out blockIdx.x, so the second block overwrites the first block's entries and its own are never written.
extern "C" __global__ void warp_lane(int *warp, int *lane)
{
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    warp[t] = t / 32;
    lane[t] = t % 32;
}
