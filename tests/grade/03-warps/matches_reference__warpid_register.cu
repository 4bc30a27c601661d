// Wrong: the warp read from the %warpid special register. It is the warp's slot on its SM (PTX ISA "%warpid": "returns the location of a thread at the moment when read"; "%ctaid and %tid should be used to compute a virtual warp index"), not its number in the block: a block that shares an SM with another, or starts at another slot, reads other numbers.
extern "C" __global__ void warp_lane(int *warp, int *lane)
{
    unsigned w;
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int g = blockIdx.x * (blockDim.x * blockDim.y) + t;
    warp[g] = w;
    lane[g] = t % 32;
}
