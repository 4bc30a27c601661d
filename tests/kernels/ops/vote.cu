// __ballot_sync, __any_sync, __all_sync, also inside a divergent branch with a partial mask.
extern "C" __global__ void vote(const int *in, unsigned *ballot, int *any, int *all,
                                unsigned *half)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int p = in[i] > 0;
    ballot[i] = __ballot_sync(0xffffffffu, p);
    any[i] = __any_sync(0xffffffffu, p);
    all[i] = __all_sync(0xffffffffu, p);
    if (lane < 16)
        half[i] = __ballot_sync(0x0000ffffu, p);
    else
        half[i] = __ballot_sync(0xffff0000u, p) | 1u;
}
