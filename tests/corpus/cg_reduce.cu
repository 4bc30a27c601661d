// cg_reduce.cu — a block sum in the style of NVIDIA cuda-samples' reduction (reduce4..7)
// with Cooperative Groups: this_thread_block, cg::sync, tiled_partition<32>,
// tile.shfl_down, cg::reduce with cg::plus / cg::greater, meta_group_rank. The float sum
// checks that every compiler's cg::reduce combines values in the same (butterfly) order.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void cg_reduce(const int *in, int *isum, float *fsum, int *imax, int n)
{
    cg::thread_block cta = cg::this_thread_block();
    __shared__ int s[256];
    __shared__ float warp_f[8];
    const unsigned t = cta.thread_rank();
    const unsigned i = blockIdx.x * (cta.size() * 2) + t;

    // each thread adds two elements, as reduce4 does
    int v = i < (unsigned)n ? in[i] : 0;
    if (i + cta.size() < (unsigned)n)
        v += in[i + cta.size()];
    s[t] = v;
    cg::sync(cta);
    for (unsigned st = cta.size() / 2; st > 32; st >>= 1) {
        if (t < st)
            s[t] = v = v + s[t + st];
        cg::sync(cta);
    }
    cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
    if (cta.thread_rank() < 32) {
        if (cta.size() >= 64)
            v += s[t + 32];
        for (int off = tile32.size() / 2; off > 0; off /= 2)
            v += tile32.shfl_down(v, off);
    }
    if (t == 0)
        isum[blockIdx.x] = v;

    // float sum and int max with cg::reduce over each warp, then over the warps
    const float f = i < (unsigned)n ? in[i] * 0.37f + 0.001f : 0.0f;
    const float wf = cg::reduce(tile32, f, cg::plus<float>());
    const int wm = cg::reduce(tile32, i < (unsigned)n ? in[i] : -1000000, cg::greater<int>());
    if (tile32.thread_rank() == 0)
        warp_f[tile32.meta_group_rank()] = wf;
    __shared__ int warp_m[8];
    if (tile32.thread_rank() == 0)
        warp_m[tile32.meta_group_rank()] = wm;
    cta.sync();
    if (tile32.meta_group_rank() == 0) {
        const unsigned nw = tile32.meta_group_size();
        const float a = tile32.thread_rank() < nw ? warp_f[tile32.thread_rank()] : 0.0f;
        const int b = tile32.thread_rank() < nw ? warp_m[tile32.thread_rank()] : -1000000;
        const float bf = cg::reduce(tile32, a, cg::plus<float>());
        const int bm = cg::reduce(tile32, b, cg::greater<int>());
        if (tile32.thread_rank() == 0) {
            fsum[blockIdx.x] = bf;
            imax[blockIdx.x] = bm;
        }
    }
}
