// Each thread records its warp and lane. In a 1D block the warp is threadIdx.x / 32
// and the lane threadIdx.x % 32 (warp size 32).
extern "C" __global__ void warps1d(int *warp, int *lane)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    warp[i] = threadIdx.x / 32;
    lane[i] = threadIdx.x % 32;
}
