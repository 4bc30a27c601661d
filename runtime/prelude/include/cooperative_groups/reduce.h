/* cooperative_groups/reduce.h — cg::reduce and its operators for clang without a CUDA
 * Toolkit (see ../cooperative_groups.h). CUDA C++ Programming Guide §11.6.3.1 "reduce":
 * every thread of the group gets op applied over all of its threads' values. Values are
 * combined in the CUDA Toolkit's order (a butterfly of shfl_xor over a tile; an inclusive
 * scan then the last thread's value over a partial coalesced group), so float results are
 * the same bits. */
#ifndef GPULEARN_COOPERATIVE_GROUPS_REDUCE_H
#define GPULEARN_COOPERATIVE_GROUPS_REDUCE_H

#include <cooperative_groups.h>
#include <cooperative_groups/details/functional.h>

namespace cooperative_groups {

template <unsigned N, typename P, typename T, typename Op>
GL_CG_DEV T reduce(const thread_block_tile<N, P> &g, T val, Op op)
{
    T out = val;
    for (int mask = N >> 1; mask > 0; mask >>= 1)
        out = op(out, g.shfl_xor(out, (unsigned)mask));
    return out;
}

template <typename T, typename Op> GL_CG_DEV T reduce(const coalesced_group &g, T val, Op op)
{
    if (g.size() == 32)
        return reduce(thread_block_tile<32>(0, 1), val, op);
    const T scan = details::inclusive_scan_lanes(g, val, op);
    const unsigned last = 31 - (unsigned)__clz((int)g.get_mask());
    return __shfl_sync(g.get_mask(), scan, (int)last, 32);
}

} // namespace cooperative_groups

#endif
