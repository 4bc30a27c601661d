// Exercise: every thread writes its warp number and lane number within its block.
// out index g: the thread's place in the whole launch (given; correct).
// The launch uses 2 blocks of blockDim.x x 3 threads (2D blocks); blockDim.x varies.
extern "C" __global__ void warp_lane(int *warp, int *lane)
{
    int t = threadIdx.x; // the thread's position in its block, as in lesson 1
    int g = blockIdx.x * (blockDim.x * blockDim.y) + threadIdx.y * blockDim.x + threadIdx.x;
    warp[g] = t / 32;
    lane[g] = t % 32;
}
