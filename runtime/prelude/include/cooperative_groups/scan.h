/* cooperative_groups/scan.h — cg::inclusive_scan and cg::exclusive_scan for clang without
 * a CUDA Toolkit (see ../cooperative_groups.h). CUDA C++ Programming Guide §11.6.3.3
 * "inclusive_scan and exclusive_scan": thread of rank r gets op over the values of ranks
 * 0..r (inclusive) or 0..r-1 (exclusive; rank 0's result is unspecified, here T()).
 * Values are combined in the CUDA Toolkit's order (Hillis-Steele by rank), so float
 * results are the same bits. */
#ifndef GPULEARN_COOPERATIVE_GROUPS_SCAN_H
#define GPULEARN_COOPERATIVE_GROUPS_SCAN_H

#include <cooperative_groups.h>
#include <cooperative_groups/details/functional.h>

namespace cooperative_groups {

template <unsigned N, typename P, typename T, typename Op>
GL_CG_DEV T inclusive_scan(const thread_block_tile<N, P> &g, T val, Op op)
{
    T out = val;
    for (unsigned d = 1; d < N; d <<= 1) {
        const T tmp = g.shfl_up(out, d);
        if (d <= g.thread_rank())
            out = op(out, tmp);
    }
    return out;
}
template <unsigned N, typename P, typename T>
GL_CG_DEV T inclusive_scan(const thread_block_tile<N, P> &g, T val)
{
    return inclusive_scan(g, val, plus<T>());
}
template <typename T, typename Op>
GL_CG_DEV T inclusive_scan(const coalesced_group &g, T val, Op op)
{
    if (g.size() == 32)
        return inclusive_scan(thread_block_tile<32>(0, 1), val, op);
    return details::inclusive_scan_lanes(g, val, op);
}
template <typename T> GL_CG_DEV T inclusive_scan(const coalesced_group &g, T val)
{
    return inclusive_scan(g, val, plus<T>());
}

/* exclusive: the inclusive result of the rank below (shfl_up by one) */
template <unsigned N, typename P, typename T, typename Op>
GL_CG_DEV T exclusive_scan(const thread_block_tile<N, P> &g, T val, Op op)
{
    const T inc = inclusive_scan(g, val, op);
    const T below = g.shfl_up(inc, 1);
    return g.thread_rank() == 0 ? T() : below;
}
template <unsigned N, typename P, typename T>
GL_CG_DEV T exclusive_scan(const thread_block_tile<N, P> &g, T val)
{
    return exclusive_scan(g, val, plus<T>());
}
template <typename T, typename Op>
GL_CG_DEV T exclusive_scan(const coalesced_group &g, T val, Op op)
{
    const T inc = inclusive_scan(g, val, op);
    const T below = g.shfl_up(inc, 1);
    return g.thread_rank() == 0 ? T() : below;
}
template <typename T> GL_CG_DEV T exclusive_scan(const coalesced_group &g, T val)
{
    return exclusive_scan(g, val, plus<T>());
}

} // namespace cooperative_groups

#endif
