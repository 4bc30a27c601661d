/* cooperative_groups.h — Cooperative Groups for clang's NVPTX back end without a CUDA
 * Toolkit (gpulearn_prelude.h is included first). The CUDA Toolkit's header needs
 * nvcc/NVRTC and libcu++; this one gives the same API over the prelude's intrinsics, with
 * the same instructions per call: CUDA C++ Programming Guide §11 "Cooperative Groups"
 * (group types §11.4, partitioning §11.5, collectives §11.6; cg::reduce and the scans are
 * in cooperative_groups/reduce.h and cooperative_groups/scan.h).
 *
 * Provided: thread_block (this_thread_block), grid_group (this_grid, without sync(): a
 * grid-wide barrier needs a cooperative launch, which gpulearn does not do),
 * thread_block_tile<1|2|4|8|16|32> (tiled_partition<N>), coalesced_group
 * (coalesced_threads), thread_group (tiled_partition(parent, n) and any group converted),
 * and the free functions sync, thread_rank, group_size.
 *
 * Differences from the CUDA Toolkit's header that a kernel can see: none in results
 * (cg::reduce and the scans combine values in the Toolkit's order, so float results are
 * bit-identical). Each sync() carries its call site (line and column, as a register
 * operand of its inline PTX; one mov.u32 more than the Toolkit's): without it clang would
 * merge two sync() calls in both arms of a divergent if into one after it, and the
 * simulator's synccheck would miss that misuse of a barrier (the prelude's __syncthreads
 * numbers its calls for the same reason). */
#ifndef GPULEARN_COOPERATIVE_GROUPS_H
#define GPULEARN_COOPERATIVE_GROUPS_H

/* inlined, on the caller's source line (as the prelude's functions: gpulearn_prelude.h) */
#define GL_CG_DEV __device__ __inline__ __attribute__((always_inline, nodebug))

namespace cooperative_groups {

/* the call site of a sync(), as default arguments (their values are the caller's) */
#define GL_CG_SITE unsigned gl_line = __builtin_LINE(), unsigned gl_col = __builtin_COLUMN()
#define GL_CG_SITE_ARGS gl_line, gl_col

namespace details {
/* A shuffle of any trivially copyable T (CUDA C++ Programming Guide §11.4.2.3: a tile's
 * shfl takes any such type): built-in arithmetic types in one __shfl_*_sync, the others
 * (uint4, a struct, a pointer) word by word, as the Toolkit's header does. */
template <bool B> struct is_arith {};
/* the types the prelude's __shfl_*_sync take (not __is_arithmetic: libstdc++ declares a
 * template of that name, which turns clang's trait off) */
template <typename T> struct shfl_native { static constexpr bool v = false; };
#define GL_CG_NATIVE(T) template <> struct shfl_native<T> { static constexpr bool v = true; };
GL_CG_NATIVE(int) GL_CG_NATIVE(unsigned) GL_CG_NATIVE(long long) GL_CG_NATIVE(unsigned long long)
GL_CG_NATIVE(float) GL_CG_NATIVE(double)
#undef GL_CG_NATIVE
template <typename T, typename F> GL_CG_DEV T shfl_any(T v, F f, is_arith<true>) { return f(v); }
template <typename T, typename F> GL_CG_DEV T shfl_any(T v, F f, is_arith<false>)
{
    unsigned w[(sizeof(T) + 3) / 4] = {};
    __builtin_memcpy(w, &v, sizeof(T));
    for (unsigned i = 0; i < (sizeof(T) + 3) / 4; i++)
        w[i] = f(w[i]);
    __builtin_memcpy(&v, w, sizeof(T));
    return v;
}
#define GL_CG_SHFL(T, v, call) details::shfl_any(v, [=](auto x) { return call; }, details::is_arith<details::shfl_native<T>::v>())
/* bar.sync 0 (PTX ISA §9.7.13.1) and bar.warp.sync (§9.7.13.3), with the call site */
GL_CG_DEV void bar_sync(unsigned line, unsigned col)
{
    asm volatile("bar.sync 0; // cg sync %0" : : "r"((line << 12) | (col & 0xfff)) : "memory");
}
GL_CG_DEV void bar_warp_sync(unsigned mask, unsigned line, unsigned col)
{
    asm volatile("bar.warp.sync %0; // cg sync %1"
                 : : "r"(mask), "r"((line << 12) | (col & 0xfff)) : "memory");
}
/* activemask (PTX ISA §9.7.13.x), with the call site */
GL_CG_DEV unsigned activemask(unsigned line, unsigned col)
{
    unsigned m;
    asm volatile("activemask.b32 %0; // cg coalesced_threads %1"
                 : "=r"(m) : "r"((line << 12) | (col & 0xfff)));
    return m;
}
GL_CG_DEV unsigned laneid()
{
    unsigned r;
    asm("mov.u32 %0, %%laneid;" : "=r"(r));
    return r;
}
/* the lane of the n-th (from 0) set bit of mask counting up from lane base (n >= 0) or
 * the -n-th counting down (n < 0), 0xffffffff when none (PTX ISA §9.7.1.x fns) */
GL_CG_DEV unsigned fns(unsigned mask, unsigned base, int n)
{
    unsigned r;
    asm("fns.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(mask), "r"(base), "r"(n));
    return r;
}
/* bits of lane_bits at the lanes of mask, packed into rank order */
GL_CG_DEV unsigned pack_lanes(unsigned mask, unsigned lane_bits)
{
    unsigned out = 0, rank = 0;
    for (unsigned m = mask; m; m &= m - 1, rank++)
        if (lane_bits & m & -m)
            out |= 1u << rank;
    return out;
}
GL_CG_DEV unsigned block_rank()
{
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
GL_CG_DEV unsigned block_size() { return blockDim.x * blockDim.y * blockDim.z; }
} // namespace details

class thread_group;

/* The threads of a block (§11.4.1.1). */
class thread_block {
public:
    GL_CG_DEV static void sync(GL_CG_SITE) { details::bar_sync(GL_CG_SITE_ARGS); }
    GL_CG_DEV static unsigned thread_rank() { return details::block_rank(); }
    GL_CG_DEV static unsigned size() { return details::block_size(); }
    GL_CG_DEV static unsigned num_threads() { return details::block_size(); }
    GL_CG_DEV static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    GL_CG_DEV static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    GL_CG_DEV static dim3 group_dim() { return dim3(blockDim.x, blockDim.y, blockDim.z); }
    GL_CG_DEV static dim3 dim_threads() { return group_dim(); }
};
GL_CG_DEV thread_block this_thread_block() { return thread_block(); }

/* The threads of the grid (§11.4.2.1); no sync(): see the file's comment. */
class grid_group {
public:
    GL_CG_DEV static unsigned long long thread_rank()
    {
        return (unsigned long long)block_rank() * details::block_size() + details::block_rank();
    }
    GL_CG_DEV static unsigned long long size()
    {
        return (unsigned long long)num_blocks() * details::block_size();
    }
    GL_CG_DEV static unsigned long long num_threads() { return size(); }
    GL_CG_DEV static unsigned long long block_rank()
    {
        return ((unsigned long long)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    }
    GL_CG_DEV static unsigned long long num_blocks()
    {
        return (unsigned long long)gridDim.x * gridDim.y * gridDim.z;
    }
    GL_CG_DEV static dim3 group_dim() { return dim3(gridDim.x, gridDim.y, gridDim.z); }
    GL_CG_DEV static dim3 dim_blocks() { return group_dim(); }
    GL_CG_DEV static dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
};
GL_CG_DEV grid_group this_grid() { return grid_group(); }

/* The active threads of a warp at the point of coalesced_threads() (§11.4.2.2); ranks
 * follow lane order. */
class coalesced_group {
    unsigned mask_;

public:
    GL_CG_DEV explicit coalesced_group(unsigned mask) : mask_(mask) {}
    GL_CG_DEV unsigned get_mask() const { return mask_; }
    GL_CG_DEV void sync(GL_CG_SITE) const { details::bar_warp_sync(mask_, GL_CG_SITE_ARGS); }
    GL_CG_DEV unsigned size() const { return __popc(mask_); }
    GL_CG_DEV unsigned num_threads() const { return size(); }
    GL_CG_DEV unsigned thread_rank() const { return __popc(mask_ & __lanemask_lt()); }
    GL_CG_DEV unsigned meta_group_rank() const { return 0; }
    GL_CG_DEV unsigned meta_group_size() const { return 1; }
    template <typename T> GL_CG_DEV T shfl(T v, unsigned src_rank) const
    {
        const unsigned lane = src_rank == 0 ? (unsigned)__ffs((int)mask_) - 1
                              : size() == 32 ? src_rank
                                             : details::fns(mask_, 0, (int)src_rank + 1);
        return __shfl_sync(mask_, v, (int)lane, 32);
    }
    template <typename T> GL_CG_DEV T shfl_down(T v, unsigned delta) const
    {
        if (size() == 32)
            return __shfl_down_sync(0xffffffffu, v, delta, 32);
        unsigned lane = details::fns(mask_, details::laneid(), (int)delta + 1);
        if (lane >= 32)
            lane = details::laneid();
        return __shfl_sync(mask_, v, (int)lane, 32);
    }
    template <typename T> GL_CG_DEV T shfl_up(T v, int delta) const
    {
        if (size() == 32)
            return __shfl_up_sync(0xffffffffu, v, (unsigned)delta, 32);
        unsigned lane = details::fns(mask_, details::laneid(), -(delta + 1));
        if (lane >= 32)
            lane = details::laneid();
        return __shfl_sync(mask_, v, (int)lane, 32);
    }
    GL_CG_DEV int any(int p) const { return __ballot_sync(mask_, p) != 0; }
    GL_CG_DEV int all(int p) const { return __ballot_sync(mask_, p) == mask_; }
    GL_CG_DEV unsigned ballot(int p) const
    {
        if (size() == 32)
            return __ballot_sync(0xffffffffu, p);
        return details::pack_lanes(mask_, __ballot_sync(mask_, p));
    }
    template <typename T> GL_CG_DEV unsigned match_any(T v) const
    {
        if (size() == 32)
            return __match_any_sync(0xffffffffu, v);
        return details::pack_lanes(mask_, __match_any_sync(mask_, v));
    }
    template <typename T> GL_CG_DEV unsigned match_all(T v, int &pred) const
    {
        if (size() == 32)
            return __match_all_sync(0xffffffffu, v, &pred);
        return details::pack_lanes(mask_, __match_all_sync(mask_, v, &pred));
    }
};
GL_CG_DEV coalesced_group coalesced_threads(GL_CG_SITE)
{
    return coalesced_group(details::activemask(GL_CG_SITE_ARGS));
}

/* A tile of N consecutive threads of a block, within one warp (§11.4.1.2, §11.5.1):
 * N is 1, 2, 4, 8, 16 or 32. ParentT is the group it was partitioned from (void: any). */
template <unsigned N, typename ParentT = void> class thread_block_tile {
    static_assert(N == 1 || N == 2 || N == 4 || N == 8 || N == 16 || N == 32,
                  "thread_block_tile: the size must be 1, 2, 4, 8, 16 or 32 (a power of two "
                  "up to the warp size)");
    unsigned meta_rank_, meta_size_;

public:
    GL_CG_DEV thread_block_tile(unsigned meta_rank, unsigned meta_size)
        : meta_rank_(meta_rank), meta_size_(meta_size) {}
    template <typename P>
    GL_CG_DEV thread_block_tile(const thread_block_tile<N, P> &t)
        : meta_rank_(t.meta_group_rank()), meta_size_(t.meta_group_size()) {}
    /* the lanes of this tile in its warp */
    GL_CG_DEV static unsigned build_mask()
    {
        return N == 32 ? 0xffffffffu : ((1u << N) - 1) << (details::laneid() & ~(N - 1));
    }
    GL_CG_DEV static void sync(GL_CG_SITE)
    {
        details::bar_warp_sync(build_mask(), GL_CG_SITE_ARGS);
    }
    GL_CG_DEV static unsigned thread_rank() { return details::laneid() & (N - 1); }
    GL_CG_DEV static unsigned size() { return N; }
    GL_CG_DEV static unsigned num_threads() { return N; }
    GL_CG_DEV unsigned meta_group_rank() const { return meta_rank_; }
    GL_CG_DEV unsigned meta_group_size() const { return meta_size_; }
    template <typename T> GL_CG_DEV T shfl(T v, int src_rank) const
    {
        return GL_CG_SHFL(T, v, __shfl_sync(build_mask(), x, src_rank, N));
    }
    template <typename T> GL_CG_DEV T shfl_down(T v, unsigned delta) const
    {
        return GL_CG_SHFL(T, v, __shfl_down_sync(build_mask(), x, delta, N));
    }
    template <typename T> GL_CG_DEV T shfl_up(T v, unsigned delta) const
    {
        return GL_CG_SHFL(T, v, __shfl_up_sync(build_mask(), x, delta, N));
    }
    template <typename T> GL_CG_DEV T shfl_xor(T v, unsigned lane_mask) const
    {
        return GL_CG_SHFL(T, v, __shfl_xor_sync(build_mask(), x, (int)lane_mask, N));
    }
    GL_CG_DEV int any(int p) const { return __ballot_sync(build_mask(), p) != 0; }
    GL_CG_DEV int all(int p) const { return __ballot_sync(build_mask(), p) == build_mask(); }
    GL_CG_DEV unsigned ballot(int p) const
    {
        return __ballot_sync(build_mask(), p) >> (details::laneid() & ~(N - 1));
    }
    template <typename T> GL_CG_DEV unsigned match_any(T v) const
    {
        return __match_any_sync(build_mask(), v) >> (details::laneid() & ~(N - 1));
    }
    template <typename T> GL_CG_DEV unsigned match_all(T v, int &pred) const
    {
        return __match_all_sync(build_mask(), v, &pred) >> (details::laneid() & ~(N - 1));
    }
};

/* tiled_partition<N>(parent) (§11.5.1): the tile of N threads holding this thread; its
 * meta_group_rank is the parent's thread_rank() / N. */
template <unsigned N, typename ParentT>
GL_CG_DEV thread_block_tile<N, ParentT> tiled_partition(const ParentT &parent)
{
    return thread_block_tile<N, ParentT>(parent.thread_rank() / N,
                                         (parent.size() + N - 1) / N);
}

/* Any group, its kind known at run time (§11.4): what tiled_partition(parent, n) returns
 * and what every group converts to. */
class thread_group {
    enum kind_t { BLOCK, TILE, COALESCED };
    kind_t kind_;
    unsigned mask_, size_;

public:
    GL_CG_DEV thread_group(const thread_block &)
        : kind_(BLOCK), mask_(0), size_(details::block_size()) {}
    template <unsigned N, typename P>
    GL_CG_DEV thread_group(const thread_block_tile<N, P> &t)
        : kind_(TILE), mask_(t.build_mask()), size_(N) {}
    GL_CG_DEV thread_group(const coalesced_group &g)
        : kind_(COALESCED), mask_(g.get_mask()), size_(g.size()) {}
    /* a tile of n threads of parent (tiled_partition(parent, n)); n divides 32 */
    GL_CG_DEV thread_group(const thread_group &, unsigned n)
        : kind_(TILE), mask_(n >= 32 ? 0xffffffffu
                                     : ((1u << n) - 1) << (details::laneid() & ~(n - 1))),
          size_(n) {}
    GL_CG_DEV void sync(GL_CG_SITE) const
    {
        if (kind_ == BLOCK)
            details::bar_sync(GL_CG_SITE_ARGS);
        else
            details::bar_warp_sync(mask_, GL_CG_SITE_ARGS);
    }
    GL_CG_DEV unsigned size() const { return size_; }
    GL_CG_DEV unsigned num_threads() const { return size_; }
    GL_CG_DEV unsigned thread_rank() const
    {
        return kind_ == BLOCK ? details::block_rank() : __popc(mask_ & __lanemask_lt());
    }
};

/* tiled_partition(parent, n) (§11.5.1): n is 1, 2, 4, 8, 16 or 32 */
GL_CG_DEV thread_group tiled_partition(const thread_group &parent, unsigned n)
{
    return thread_group(parent, n);
}

/* free functions (§11.4) */
template <typename G> GL_CG_DEV void sync(const G &g, GL_CG_SITE) { g.sync(GL_CG_SITE_ARGS); }
template <typename G> GL_CG_DEV unsigned long long thread_rank(const G &g)
{
    return g.thread_rank();
}
template <typename G> GL_CG_DEV unsigned long long group_size(const G &g) { return g.size(); }

} // namespace cooperative_groups

#undef GL_CG_SITE
#undef GL_CG_SITE_ARGS
#endif
