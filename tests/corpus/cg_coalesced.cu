// cg_coalesced.cu — coalesced_threads() in divergent code: the lanes of a warp whose
// value is odd form a group (ranks in lane order). Warp-aggregated atomics (one atomicAdd
// per group, each lane's slot from the group's base plus its rank, as in the CUDA
// Programming Guide's example), and the partial group's size, shfl, shfl_up/down, ballot,
// any/all, cg::reduce (float: a scan by rank, then the last lane's value) and scans.
// Each warp has its own counter, so the output does not depend on the order of warps.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

extern "C" __global__ void cg_coalesced(const int *in, int *count, int *slot, int *out,
                                        float *fout)
{
    const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
    const int v = in[g];
    int *o = out + 8 * g;
    if (v & 1) {
        cg::coalesced_group active = cg::coalesced_threads();
        int base = 0;
        if (active.thread_rank() == 0)
            base = atomicAdd(&count[g / 32], (int)active.size());
        base = active.shfl(base, 0);
        slot[g] = base + (int)active.thread_rank();
        o[0] = (int)(active.size() + 100 * active.thread_rank());
        o[1] = active.shfl(v, 3) + active.shfl_down(v, 1) * 3 + active.shfl_up(v, 2) * 7;
        o[2] = (int)active.ballot(v > 0) + (active.any(v > 900) << 30) + (active.all(v < 990) << 29);
        o[3] = cg::reduce(active, v, cg::plus<int>());
        o[4] = cg::inclusive_scan(active, v);
        o[5] = cg::exclusive_scan(active, v, cg::greater<int>());
        fout[g] = cg::reduce(active, v * 0.1f + 0.03f, cg::plus<float>());
        active.sync();
    } else {
        cg::coalesced_group even = cg::coalesced_threads();
        slot[g] = -1;
        o[6] = (int)(even.size() + 100 * even.thread_rank());
        o[7] = cg::reduce(even, v, cg::less<int>());
        fout[g] = cg::inclusive_scan(even, v * 0.7f - 0.01f);
    }
}
