// Right: the lane read from the %laneid special register (warps are cut from the linear id, so it equals t % 32); the warp from the linear id.
extern "C" __global__ void warp_lane(int *warp, int *lane)
{
    unsigned l;
    asm("mov.u32 %0, %%laneid;" : "=r"(l));
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int g = blockIdx.x * (blockDim.x * blockDim.y) + t;
    warp[g] = t / 32;
    lane[g] = l;
}
