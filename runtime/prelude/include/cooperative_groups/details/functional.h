/* cooperative_groups/details/functional.h — for clang without a CUDA Toolkit (see
 * ../../cooperative_groups.h): the operators of cg::reduce and the scans, cg::plus, less,
 * greater, bit_and, bit_or, bit_xor (CUDA C++ Programming Guide §11.6.3.1, as the
 * Toolkit's details/functional.h defines them), and the scan by rank over a partial
 * coalesced group that both use. Included by reduce.h and scan.h. */
#ifndef GPULEARN_COOPERATIVE_GROUPS_FUNCTIONAL_H
#define GPULEARN_COOPERATIVE_GROUPS_FUNCTIONAL_H

#include <cooperative_groups.h>

namespace cooperative_groups {

template <typename T> struct plus {
    GL_CG_DEV T operator()(T a, T b) const { return a + b; }
};
template <typename T> struct less {
    GL_CG_DEV T operator()(T a, T b) const { return b < a ? b : a; }
};
template <typename T> struct greater {
    GL_CG_DEV T operator()(T a, T b) const { return a < b ? b : a; }
};
template <typename T> struct bit_and {
    GL_CG_DEV T operator()(T a, T b) const { return a & b; }
};
template <typename T> struct bit_or {
    GL_CG_DEV T operator()(T a, T b) const { return a | b; }
};
template <typename T> struct bit_xor {
    GL_CG_DEV T operator()(T a, T b) const { return a ^ b; }
};

namespace details {
/* inclusive scan by rank over the lanes of a partial coalesced group: at step i a thread
 * of rank >= i combines its value with that of rank - i */
template <typename T, typename Op>
GL_CG_DEV T inclusive_scan_lanes(const coalesced_group &g, T val, Op op)
{
    const unsigned mask = g.get_mask(), n = g.size(), rank = g.thread_rank();
    T out = val;
    for (unsigned i = 1; i < n; i <<= 1) {
        const unsigned src = i <= rank ? fns(mask, laneid(), -(int)i - 1) : laneid();
        const T tmp = __shfl_sync(mask, out, (int)src, 32);
        if (i <= rank)
            out = op(out, tmp);
    }
    return out;
}
} // namespace details

} // namespace cooperative_groups

#endif
