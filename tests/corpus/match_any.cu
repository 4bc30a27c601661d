// __match_any_sync / __match_all_sync (match.sync): lanes grouped by equal keys, and whether a warp's keys are all equal.
extern "C" __global__ void match_any(const int *keys, unsigned *groups, int *all)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = keys[i];
    groups[i] = __match_any_sync(0xffffffffu, k);
    int pred;
    unsigned m = __match_all_sync(0xffffffffu, k / 1000, &pred);
    all[i] = pred * 2 + (m == 0xffffffffu);
}
