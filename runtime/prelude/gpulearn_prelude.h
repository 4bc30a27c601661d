/* gpulearn_prelude.h — what a CUDA kernel needs from the CUDA headers, for clang's NVPTX
 * back end without a CUDA Toolkit. Passed with `-include` to
 *   clang --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_75 -S -O2
 * Everything here maps onto clang builtins (__nvvm_*, __builtin_*) or inline PTX, so no
 * libdevice is needed. The single-precision math library (sinf, expf, powf, atan2f, ...)
 * is computed in double precision (within 1 ulp; see "float math library" below); the
 * double-precision one (sin, exp, pow, erf, lgamma, ... of a double) and the float special
 * functions (erfcf, lgammaf, normcdfinvf, ...) are in include/gpulearn/math_extra.h. Not
 * provided: the Bessel functions (j0f, y0, cyl_bessel_i0f, ...).
 * References: CUDA C++ Programming Guide §7 (C++ language extensions), PTX ISA §9.7. */
#ifndef GPULEARN_PRELUDE_H
#define GPULEARN_PRELUDE_H

/* ---------------------------------------------------------------- qualifiers (§7.1-7.2) */
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
/* __restrict__ is a clang keyword already. __noinline__ is left out on purpose:
 * defining it as a macro breaks __attribute__((__noinline__)); use
 * __attribute__((noinline)). */

/* The prelude's functions are inlined and carry no line info of their own (nodebug): clang
 * 14's NVPTX back end writes no inlined_at, and without it their instructions would be
 * put on the prelude's lines; this way they are on the line that called them, as NVRTC
 * puts them. */
#define GL_DEV __device__ static __inline__ __attribute__((always_inline, nodebug))

typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;

/* threadIdx, blockIdx, blockDim, gridDim, warpSize (§7.4): clang's own header. */
#include <__clang_cuda_builtin_vars.h>

/* ------------------------------------------------------------ vector types (§7.3.1) */
/* The vector types, dim3 and the make_ functions (host and device, as CUDA's), shared
 * with a whole program's host-only files (cudart/include/cuda_runtime.h). */
#define GL_HD __host__ __device__ static __inline__ __attribute__((always_inline, nodebug))
#include <gpulearn/vector_types.h>
/* clang's builtin-variable header declares these conversions; CUDA's headers define them. */
#define GL_BUILTIN_CONV(T)                                                                \
    __device__ inline T::operator dim3() const { return dim3(x, y, z); }                   \
    __device__ inline T::operator uint3() const { return {x, y, z}; }
GL_BUILTIN_CONV(__cuda_builtin_threadIdx_t)
GL_BUILTIN_CONV(__cuda_builtin_blockIdx_t)
GL_BUILTIN_CONV(__cuda_builtin_blockDim_t)
GL_BUILTIN_CONV(__cuda_builtin_gridDim_t)
#undef GL_BUILTIN_CONV

/* ---------------------------------------------------------------- printf (§7.33) */
/* clang lowers device printf to the driver's vprintf. */
extern "C" __device__ int printf(const char *, ...);

/* ------------------------------------------------ memcpy, memset in device code (§7.27) */
/* CUDA declares them for both sides; a whole program's host code has the C library's
 * (overloads by __host__/__device__, as clang's own CUDA headers do). */
GL_DEV void *memcpy(void *d, const void *s, size_t n) { return __builtin_memcpy(d, s, n); }
GL_DEV void *memset(void *d, int c, size_t n) { return __builtin_memset(d, c, n); }

/* ------------------------------------------------- device heap (§7.37, declared only) */
/* Declared so that host C++ headers compile (clang's cuda_wrappers/new, which <algorithm>
 * includes, calls ::malloc); the simulator has no device heap, and a kernel that calls
 * them is told so when it is loaded. */
extern "C" __device__ void *malloc(size_t);
extern "C" __device__ void free(void *);

/* --------------------------------------------- synchronisation (§7.6, PTX §9.7.12) */
/* Barriers and fences are inline PTX with a "memory" clobber, not clang 14's builtins
 * (__syncthreads, __nvvm_bar0_*, __nvvm_membar_*): with those, LLVM's alias analysis
 * assumes a barrier cannot touch a __shared__ variable whose address never escapes and
 * moves its loads above the barrier (seen in tests/corpus/scan_multiblock_chained: every
 * thread read `blk` before thread 0 had stored it). Each barrier's text also differs from
 * every other's (a comment numbered by __COUNTER__ at the call): LLVM would otherwise
 * merge identical barriers in both arms of an if into one outside it (SimplifyCFG hoists
 * and sinks identical instructions), and the barrier in divergent code that synccheck
 * reports, as it does for NVRTC's and nvcc's code, would be gone. */
template <int K> GL_DEV void gl_syncwarp(unsigned mask = 0xffffffffu)
{
    asm volatile("bar.warp.sync %0; // __syncwarp %1" : : "r"(mask), "n"(K) : "memory");
}
#define __syncwarp(...) gl_syncwarp<__COUNTER__>(__VA_ARGS__)
template <int K> GL_DEV void gl_syncthreads(void)
{
    asm volatile("bar.sync 0; // __syncthreads %0" : : "n"(K) : "memory");
}
#define __syncthreads() gl_syncthreads<__COUNTER__>()
GL_DEV void __threadfence_block(void) { asm volatile("membar.cta;" : : : "memory"); }
GL_DEV void __threadfence(void) { asm volatile("membar.gl;" : : : "memory"); }
GL_DEV void __threadfence_system(void) { asm volatile("membar.sys;" : : : "memory"); }
template <int K> GL_DEV int gl_syncthreads_count(int p)
{
    int r;
    asm volatile("{ .reg .pred p; setp.ne.s32 p, %1, 0; bar.red.popc.u32 %0, 0, p; }"
                 " // __syncthreads_count %2" : "=r"(r) : "r"(p), "n"(K) : "memory");
    return r;
}
#define __syncthreads_count(p) gl_syncthreads_count<__COUNTER__>(p)
template <int K> GL_DEV int gl_syncthreads_and(int p)
{
    int r;
    asm volatile("{ .reg .pred p, q; setp.ne.s32 p, %1, 0; bar.red.and.pred q, 0, p;\n\t"
                 "selp.s32 %0, 1, 0, q; } // __syncthreads_and %2" : "=r"(r) : "r"(p), "n"(K)
                 : "memory");
    return r;
}
#define __syncthreads_and(p) gl_syncthreads_and<__COUNTER__>(p)
template <int K> GL_DEV int gl_syncthreads_or(int p)
{
    int r;
    asm volatile("{ .reg .pred p, q; setp.ne.s32 p, %1, 0; bar.red.or.pred q, 0, p;\n\t"
                 "selp.s32 %0, 1, 0, q; } // __syncthreads_or %2" : "=r"(r) : "r"(p), "n"(K)
                 : "memory");
    return r;
}
#define __syncthreads_or(p) gl_syncthreads_or<__COUNTER__>(p)

/* ------------------------------------------------- atomics (§7.14, PTX §9.7.13.5) */
/* Every atomic returns the old value. Generic addressing: works on global and shared. */
#define GL_ATOM(name, T, U, b) \
    GL_DEV T name(T *p, T v) { return (T)b((U *)p, (U)v); }
GL_ATOM(atomicAdd, int, int, __nvvm_atom_add_gen_i)
GL_ATOM(atomicAdd, unsigned, int, __nvvm_atom_add_gen_i)
GL_ATOM(atomicAdd, unsigned long long, long long, __nvvm_atom_add_gen_ll)
GL_ATOM(atomicAdd, float, float, __nvvm_atom_add_gen_f)
GL_ATOM(atomicAdd, double, double, __nvvm_atom_add_gen_d)
GL_ATOM(atomicSub, int, int, __nvvm_atom_sub_gen_i)
GL_ATOM(atomicSub, unsigned, int, __nvvm_atom_sub_gen_i)
GL_ATOM(atomicExch, int, int, __nvvm_atom_xchg_gen_i)
GL_ATOM(atomicExch, unsigned, int, __nvvm_atom_xchg_gen_i)
GL_ATOM(atomicExch, unsigned long long, long long, __nvvm_atom_xchg_gen_ll)
GL_ATOM(atomicMin, int, int, __nvvm_atom_min_gen_i)
GL_ATOM(atomicMin, unsigned, unsigned, __nvvm_atom_min_gen_ui)
GL_ATOM(atomicMin, long long, long long, __nvvm_atom_min_gen_ll)
GL_ATOM(atomicMin, unsigned long long, unsigned long long, __nvvm_atom_min_gen_ull)
GL_ATOM(atomicMax, int, int, __nvvm_atom_max_gen_i)
GL_ATOM(atomicMax, unsigned, unsigned, __nvvm_atom_max_gen_ui)
GL_ATOM(atomicMax, long long, long long, __nvvm_atom_max_gen_ll)
GL_ATOM(atomicMax, unsigned long long, unsigned long long, __nvvm_atom_max_gen_ull)
GL_ATOM(atomicAnd, int, int, __nvvm_atom_and_gen_i)
GL_ATOM(atomicAnd, unsigned, int, __nvvm_atom_and_gen_i)
GL_ATOM(atomicAnd, unsigned long long, long long, __nvvm_atom_and_gen_ll)
GL_ATOM(atomicOr, int, int, __nvvm_atom_or_gen_i)
GL_ATOM(atomicOr, unsigned, int, __nvvm_atom_or_gen_i)
GL_ATOM(atomicOr, unsigned long long, long long, __nvvm_atom_or_gen_ll)
GL_ATOM(atomicXor, int, int, __nvvm_atom_xor_gen_i)
GL_ATOM(atomicXor, unsigned, int, __nvvm_atom_xor_gen_i)
GL_ATOM(atomicXor, unsigned long long, long long, __nvvm_atom_xor_gen_ll)
/* atom.inc/dec: ((old >= v) ? 0 : old + 1) and (((old == 0) || (old > v)) ? v : old - 1) */
GL_ATOM(atomicInc, unsigned, unsigned, __nvvm_atom_inc_gen_ui)
GL_ATOM(atomicDec, unsigned, unsigned, __nvvm_atom_dec_gen_ui)
#undef GL_ATOM
GL_DEV float atomicExch(float *p, float v)
{
    return __builtin_bit_cast(float, __nvvm_atom_xchg_gen_i((int *)p, __builtin_bit_cast(int, v)));
}
GL_DEV int atomicCAS(int *p, int cmp, int v) { return __nvvm_atom_cas_gen_i(p, cmp, v); }
GL_DEV unsigned atomicCAS(unsigned *p, unsigned cmp, unsigned v)
{
    return (unsigned)__nvvm_atom_cas_gen_i((int *)p, (int)cmp, (int)v);
}
GL_DEV unsigned long long atomicCAS(unsigned long long *p, unsigned long long cmp,
                                    unsigned long long v)
{
    return (unsigned long long)__nvvm_atom_cas_gen_ll((long long *)p, (long long)cmp,
                                                      (long long)v);
}

/* ------------------------------------------- warp functions (§7.21-7.22, PTX §9.7.8) */
/* Inline PTX rather than clang's __nvvm_*_sync builtins: those need a ptx60 target
 * feature that clang only enables when it recognises the installed CUDA version.
 * c operand of shfl.sync: ((32 - width) << 8) | clamp, clamp 0x1f except for up (0). */
#define GL_SHFL(name, mode, clamp, L)                                                    \
    GL_DEV unsigned name(unsigned m, unsigned v, L l, int w = 32)                        \
    {                                                                                    \
        unsigned r;                                                                      \
        asm volatile("shfl.sync." mode ".b32 %0, %1, %2, %3, %4;"                        \
                     : "=r"(r) : "r"(v), "r"((unsigned)l), "r"(((32 - w) << 8) | (clamp)), \
                       "r"(m));                                                          \
        return r;                                                                        \
    }                                                                                    \
    GL_DEV int name(unsigned m, int v, L l, int w = 32)                                  \
    {                                                                                    \
        return (int)name(m, (unsigned)v, l, w);                                          \
    }                                                                                    \
    GL_DEV float name(unsigned m, float v, L l, int w = 32)                              \
    {                                                                                    \
        return __builtin_bit_cast(float, name(m, __builtin_bit_cast(unsigned, v), l, w)); \
    }                                                                                    \
    /* 64-bit values: two 32-bit shuffles, as CUDA's headers do */                      \
    GL_DEV unsigned long long name(unsigned m, unsigned long long v, L l, int w = 32)    \
    {                                                                                    \
        unsigned lo = name(m, (unsigned)v, l, w), hi = name(m, (unsigned)(v >> 32), l, w); \
        return ((unsigned long long)hi << 32) | lo;                                      \
    }                                                                                    \
    GL_DEV long long name(unsigned m, long long v, L l, int w = 32)                      \
    {                                                                                    \
        return (long long)name(m, (unsigned long long)v, l, w);                          \
    }                                                                                    \
    GL_DEV double name(unsigned m, double v, L l, int w = 32)                            \
    {                                                                                    \
        return __builtin_bit_cast(double,                                                \
                                  name(m, __builtin_bit_cast(unsigned long long, v), l, w)); \
    }
GL_SHFL(__shfl_sync, "idx", 0x1f, int)
GL_SHFL(__shfl_up_sync, "up", 0, unsigned)
GL_SHFL(__shfl_down_sync, "down", 0x1f, unsigned)
GL_SHFL(__shfl_xor_sync, "bfly", 0x1f, int)
#undef GL_SHFL
#define GL_VOTE(name, mode)                                                              \
    GL_DEV int name(unsigned m, int p)                                                   \
    {                                                                                    \
        int r;                                                                           \
        asm volatile("{ .reg .pred p, q; setp.ne.s32 p, %1, 0;\n\t"                     \
                     "vote.sync." mode ".pred q, p, %2; selp.s32 %0, 1, 0, q; }"          \
                     : "=r"(r) : "r"(p), "r"(m));                                        \
        return r;                                                                        \
    }
GL_VOTE(__all_sync, "all")
GL_VOTE(__any_sync, "any")
GL_VOTE(__uni_sync, "uni")
#undef GL_VOTE
GL_DEV unsigned __ballot_sync(unsigned m, int p)
{
    unsigned r;
    asm volatile("{ .reg .pred p; setp.ne.s32 p, %1, 0;\n\t"
                 "vote.sync.ballot.b32 %0, p, %2; }" : "=r"(r) : "r"(p), "r"(m));
    return r;
}
/* numbered per call as the barriers are: LLVM would otherwise hoist the activemask of
 * both arms of an if above the branch, where every lane of the warp is still active */
template <int K> GL_DEV unsigned gl_activemask(void)
{
    unsigned m;
    asm volatile("activemask.b32 %0; // __activemask %1" : "=r"(m) : "n"(K));
    return m;
}
#define __activemask() gl_activemask<__COUNTER__>()
GL_DEV unsigned __lanemask_lt(void) { return __nvvm_read_ptx_sreg_lanemask_lt(); }
/* match.sync (§7.23, PTX §9.7.8.x match.sync, sm_70+) */
GL_DEV unsigned __match_any_sync(unsigned m, unsigned v)
{
    unsigned r;
    asm volatile("match.any.sync.b32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(m));
    return r;
}
GL_DEV unsigned __match_any_sync(unsigned m, int v) { return __match_any_sync(m, (unsigned)v); }
GL_DEV unsigned __match_all_sync(unsigned m, unsigned v, int *pred)
{
    unsigned r;
    int p;
    asm volatile("{ .reg .pred q; match.all.sync.b32 %0|q, %2, %3; selp.s32 %1, 1, 0, q; }"
                 : "=r"(r), "=r"(p) : "r"(v), "r"(m));
    *pred = p;
    return r;
}
GL_DEV unsigned __match_all_sync(unsigned m, int v, int *pred)
{
    return __match_all_sync(m, (unsigned)v, pred);
}

/* -------------------------------------- read-only loads and timers (§7.10, §7.11) */
/* __ldg: ld.global.nc of a generic pointer converted to the global window */
#define GL_LDG(T, ptype, cons)                                                           \
    GL_DEV T __ldg(const T *p)                                                           \
    {                                                                                    \
        T r;                                                                             \
        asm("{ .reg .u64 gl_g; cvta.to.global.u64 gl_g, %1; ld.global.nc." ptype " %0, [gl_g]; }" \
            : "=" cons(r) : "l"(p));                                                     \
        return r;                                                                        \
    }
GL_LDG(int, "s32", "r")
GL_LDG(unsigned, "u32", "r")
GL_LDG(long long, "s64", "l")
GL_LDG(unsigned long long, "u64", "l")
GL_LDG(float, "f32", "f")
GL_LDG(double, "f64", "d")
#undef GL_LDG
GL_DEV float2 __ldg(const float2 *p)
{
    float2 r;
    asm("{ .reg .u64 gl_g; cvta.to.global.u64 gl_g, %2; ld.global.nc.v2.f32 {%0, %1}, [gl_g]; }"
        : "=f"(r.x), "=f"(r.y) : "l"(p));
    return r;
}
GL_DEV int2 __ldg(const int2 *p)
{
    int2 r;
    asm("{ .reg .u64 gl_g; cvta.to.global.u64 gl_g, %2; ld.global.nc.v2.s32 {%0, %1}, [gl_g]; }"
        : "=r"(r.x), "=r"(r.y) : "l"(p));
    return r;
}
GL_DEV float4 __ldg(const float4 *p)
{
    float4 r;
    asm("{ .reg .u64 gl_g; cvta.to.global.u64 gl_g, %4; ld.global.nc.v4.f32 {%0, %1, %2, %3}, [gl_g]; }"
        : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(p));
    return r;
}
GL_DEV long long clock64(void) { return (long long)__nvvm_read_ptx_sreg_clock64(); }
GL_DEV int clock(void) { return __nvvm_read_ptx_sreg_clock(); }

/* ----------------------------------------------------- integer intrinsics (§13.2) */
GL_DEV int __popc(unsigned x) { return __builtin_popcount(x); }
GL_DEV int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
GL_DEV int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
GL_DEV int __ffs(int x) { return __builtin_ffs(x); }
GL_DEV unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
GL_DEV int __mulhi(int a, int b) { return __nvvm_mulhi_i(a, b); }
GL_DEV unsigned __umulhi(unsigned a, unsigned b) { return __nvvm_mulhi_ui(a, b); }
GL_DEV int __mul24(int a, int b) { return __nvvm_mul24_i(a, b); }
GL_DEV unsigned __umul24(unsigned a, unsigned b) { return __nvvm_mul24_ui(a, b); }
GL_DEV long long __mul64hi(long long a, long long b) { return __nvvm_mulhi_ll(a, b); }
GL_DEV unsigned long long __umul64hi(unsigned long long a, unsigned long long b)
{
    return __nvvm_mulhi_ull(a, b);
}
GL_DEV int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
GL_DEV int __ffsll(long long x) { return __builtin_ffsll(x); }
GL_DEV unsigned long long __brevll(unsigned long long x) { return __builtin_bitreverse64(x); }
GL_DEV unsigned __byte_perm(unsigned x, unsigned y, unsigned s) { return __nvvm_prmt(x, y, s); }
GL_DEV unsigned __sad(int x, int y, unsigned z) { return __nvvm_sad_i(x, y, (int)z); }
GL_DEV unsigned __usad(unsigned x, unsigned y, unsigned z) { return __nvvm_sad_ui(x, y, z); }
/* funnel shifts (PTX §9.7.8.x shf): lo and hi form a 64-bit value hi:lo */
#define GL_SHF(name, dir, mode)                                                          \
    GL_DEV unsigned name(unsigned lo, unsigned hi, unsigned s)                           \
    {                                                                                    \
        unsigned r;                                                                      \
        asm("shf." dir "." mode ".b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s)); \
        return r;                                                                        \
    }
GL_SHF(__funnelshift_l, "l", "wrap")
GL_SHF(__funnelshift_lc, "l", "clamp")
GL_SHF(__funnelshift_r, "r", "wrap")
GL_SHF(__funnelshift_rc, "r", "clamp")
#undef GL_SHF
/* four-way byte dot product plus c (PTX §9.7.1.23 dp4a, sm_61+) */
GL_DEV int __dp4a(int a, int b, int c)
{
    int r;
    asm("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
GL_DEV unsigned __dp4a(unsigned a, unsigned b, unsigned c)
{
    unsigned r;
    asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
/* ends the kernel with an error (PTX ISA §9.7.19.x trap), as CUDA's __trap() */
GL_DEV void __trap(void) { asm volatile("trap;"); }
/* suspends the thread for about ns nanoseconds (PTX §9.7.13.x nanosleep, sm_70+) */
GL_DEV void __nanosleep(unsigned ns) { asm volatile("nanosleep.u32 %0;" : : "r"(ns)); }

/* warp reductions (CUDA C++ Programming Guide "Warp Reduce Functions", sm_80+; PTX ISA
 * §9.7.13.x redux.sync): every lane of mask gets the reduction of their values. Only for
 * sm_80 and later, as CUDA's own headers: on older targets they are undeclared */
#if __CUDA_ARCH__ >= 800
#define GL_REDUX(name, T, op, ty, cons)                                                  \
    GL_DEV T name(unsigned mask, T v)                                                   \
    {                                                                                   \
        T r;                                                                            \
        asm volatile("redux.sync." op "." ty " %0, %1, %2;" : "=r"(r) : cons(v), "r"(mask)); \
        return r;                                                                       \
    }
GL_REDUX(__reduce_add_sync, int, "add", "s32", "r")
GL_REDUX(__reduce_add_sync, unsigned, "add", "u32", "r")
GL_REDUX(__reduce_min_sync, int, "min", "s32", "r")
GL_REDUX(__reduce_min_sync, unsigned, "min", "u32", "r")
GL_REDUX(__reduce_max_sync, int, "max", "s32", "r")
GL_REDUX(__reduce_max_sync, unsigned, "max", "u32", "r")
GL_REDUX(__reduce_and_sync, unsigned, "and", "b32", "r")
GL_REDUX(__reduce_or_sync, unsigned, "or", "b32", "r")
GL_REDUX(__reduce_xor_sync, unsigned, "xor", "b32", "r")
#undef GL_REDUX
#endif

/* --------------------------------------------------------------- math (§13.1, §13.3) */
/* min and max: host and device, as CUDA's math_functions.hpp declares them (a whole
 * program's host code calls them too) */
GL_HD int min(int a, int b) { return a < b ? a : b; }
GL_HD int max(int a, int b) { return a > b ? a : b; }
GL_HD unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
GL_HD unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
GL_HD long long min(long long a, long long b) { return a < b ? a : b; }
GL_HD long long max(long long a, long long b) { return a > b ? a : b; }
GL_HD float min(float a, float b) { return __builtin_fminf(a, b); }
GL_HD float max(float a, float b) { return __builtin_fmaxf(a, b); }
GL_HD unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
GL_HD unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
GL_HD double min(double a, double b) { return __builtin_fmin(a, b); }
GL_HD double max(double a, double b) { return __builtin_fmax(a, b); }
/* mixed signedness, as CUDA's math_functions.hpp declares them: compared unsigned
 * (min(256, n - blockIdx.x * 256) is min(int, unsigned)) */
GL_HD unsigned min(int a, unsigned b) { return min((unsigned)a, b); }
GL_HD unsigned min(unsigned a, int b) { return min(a, (unsigned)b); }
GL_HD unsigned max(int a, unsigned b) { return max((unsigned)a, b); }
GL_HD unsigned max(unsigned a, int b) { return max(a, (unsigned)b); }
GL_HD unsigned long long min(long long a, unsigned long long b) { return min((unsigned long long)a, b); }
GL_HD unsigned long long min(unsigned long long a, long long b) { return min(a, (unsigned long long)b); }
GL_HD unsigned long long max(long long a, unsigned long long b) { return max((unsigned long long)a, b); }
GL_HD unsigned long long max(unsigned long long a, long long b) { return max(a, (unsigned long long)b); }
/* abs.s32/.s64 semantics: the most negative value stays itself (no signed overflow) */
GL_DEV int abs(int a) { return (int)(a < 0 ? 0u - (unsigned)a : (unsigned)a); }
GL_DEV long long llabs(long long a)
{
    return (long long)(a < 0 ? 0ull - (unsigned long long)a : (unsigned long long)a);
}
GL_DEV long labs(long a) { return (long)llabs(a); }
/* classification (§13.1): true/false as int */
GL_DEV int isnan(float a) { return __builtin_isnan(a); }
GL_DEV int isnan(double a) { return __builtin_isnan(a); }
GL_DEV int isinf(float a) { return __builtin_isinf(a); }
GL_DEV int isinf(double a) { return __builtin_isinf(a); }
GL_DEV int isfinite(float a) { return __builtin_isfinite(a); }
GL_DEV int isfinite(double a) { return __builtin_isfinite(a); }
GL_DEV int signbit(float a) { return __builtin_signbit(a); }
GL_DEV int signbit(double a) { return __builtin_signbit(a); }
GL_DEV float roundf(float a) { return __builtin_roundf(a); } /* half away from zero */
GL_DEV double round(double a) { return __builtin_round(a); }
GL_DEV double floor(double a) { return __builtin_floor(a); }
GL_DEV double ceil(double a) { return __builtin_ceil(a); }
GL_DEV double trunc(double a) { return __builtin_trunc(a); }
GL_DEV double rint(double a) { return __builtin_rint(a); }
GL_DEV double copysign(double a, double b) { return __builtin_copysign(a, b); }
GL_DEV float fminf(float a, float b) { return __builtin_fminf(a, b); }
GL_DEV float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
GL_DEV float fabsf(float a) { return __builtin_fabsf(a); }
GL_DEV float sqrtf(float a) { return __builtin_sqrtf(a); }   /* sqrt.rn.f32 */
GL_DEV double sqrt(double a) { return __builtin_sqrt(a); }   /* sqrt.rn.f64 */
GL_DEV double fabs(double a) { return __builtin_fabs(a); }
GL_DEV double fmin(double a, double b) { return __builtin_fmin(a, b); }
GL_DEV double fmax(double a, double b) { return __builtin_fmax(a, b); }
GL_DEV float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
GL_DEV double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
GL_DEV float floorf(float a) { return __builtin_floorf(a); }
GL_DEV float ceilf(float a) { return __builtin_ceilf(a); }
GL_DEV float truncf(float a) { return __builtin_truncf(a); }
GL_DEV float rintf(float a) { return __builtin_rintf(a); }
GL_DEV float copysignf(float a, float b) { return __builtin_copysignf(a, b); }
GL_DEV float rsqrtf(float a) { return __nvvm_rsqrt_approx_f(a); } /* rsqrt.approx */
GL_DEV float __fdividef(float a, float b) { return __nvvm_div_approx_f(a, b); }
GL_DEV float __saturatef(float a) { return __nvvm_saturate_f(a); }
/* Fast approximations (ex2/lg2/sin/cos.approx.f32), as CUDA's __expf etc. */
GL_DEV float __expf(float a) { return __nvvm_ex2_approx_f(a * 1.4426950408889634f); }
GL_DEV float __exp2f(float a) { return __nvvm_ex2_approx_f(a); }
GL_DEV float __logf(float a) { return __nvvm_lg2_approx_f(a) * 0.6931471805599453f; }
GL_DEV float __log2f(float a) { return __nvvm_lg2_approx_f(a); }
GL_DEV float __sinf(float a) { return __nvvm_sin_approx_f(a); }
GL_DEV float __cosf(float a) { return __nvvm_cos_approx_f(a); }
/* Correctly rounded arithmetic in a chosen rounding mode (§13.2 "Single/Double Precision
 * Intrinsics"; PTX §9.7.3 add/sub/mul/fma/div/rcp/sqrt with .rn/.rz/.rm/.rp): CUDA's
 * _rn/_rz/_rd/_ru are PTX's .rn/.rz/.rm/.rp */
#define GL_ROUNDED(sfx, nv)                                                              \
    GL_DEV float __fadd_##sfx(float a, float b) { return __nvvm_add_##nv##_f(a, b); }    \
    GL_DEV float __fsub_##sfx(float a, float b) { return __nvvm_add_##nv##_f(a, -b); }   \
    GL_DEV float __fmul_##sfx(float a, float b) { return __nvvm_mul_##nv##_f(a, b); }    \
    GL_DEV float __fmaf_##sfx(float a, float b, float c) { return __nvvm_fma_##nv##_f(a, b, c); } \
    GL_DEV float __fdiv_##sfx(float a, float b) { return __nvvm_div_##nv##_f(a, b); }    \
    GL_DEV float __frcp_##sfx(float a) { return __nvvm_rcp_##nv##_f(a); }                \
    GL_DEV float __fsqrt_##sfx(float a) { return __nvvm_sqrt_##nv##_f(a); }              \
    GL_DEV double __dadd_##sfx(double a, double b) { return __nvvm_add_##nv##_d(a, b); } \
    GL_DEV double __dsub_##sfx(double a, double b) { return __nvvm_add_##nv##_d(a, -b); } \
    GL_DEV double __dmul_##sfx(double a, double b) { return __nvvm_mul_##nv##_d(a, b); } \
    GL_DEV double __fma_##sfx(double a, double b, double c) { return __nvvm_fma_##nv##_d(a, b, c); } \
    GL_DEV double __ddiv_##sfx(double a, double b) { return __nvvm_div_##nv##_d(a, b); } \
    GL_DEV double __drcp_##sfx(double a) { return __nvvm_rcp_##nv##_d(a); }              \
    GL_DEV double __dsqrt_##sfx(double a) { return __nvvm_sqrt_##nv##_d(a); }            \
    GL_DEV int __float2int_##sfx(float a) { return __nvvm_f2i_##nv(a); }                 \
    GL_DEV unsigned __float2uint_##sfx(float a) { return __nvvm_f2ui_##nv(a); }          \
    GL_DEV long long __float2ll_##sfx(float a) { return __nvvm_f2ll_##nv(a); }           \
    GL_DEV unsigned long long __float2ull_##sfx(float a) { return __nvvm_f2ull_##nv(a); } \
    GL_DEV int __double2int_##sfx(double a) { return __nvvm_d2i_##nv(a); }               \
    GL_DEV unsigned __double2uint_##sfx(double a) { return __nvvm_d2ui_##nv(a); }        \
    GL_DEV long long __double2ll_##sfx(double a) { return __nvvm_d2ll_##nv(a); }         \
    GL_DEV unsigned long long __double2ull_##sfx(double a) { return __nvvm_d2ull_##nv(a); } \
    GL_DEV float __double2float_##sfx(double a) { return __nvvm_d2f_##nv(a); }           \
    /* integer to float through inline PTX: clang 14 folds __nvvm_i2f_rz into a      \
     * round-to-nearest sitofp */                                                      \
    GL_DEV float __int2float_##sfx(int a)                                               \
    {                                                                                    \
        float r;                                                                         \
        asm("cvt." #nv ".f32.s32 %0, %1;" : "=f"(r) : "r"(a));                           \
        return r;                                                                        \
    }                                                                                    \
    GL_DEV float __uint2float_##sfx(unsigned a)                                         \
    {                                                                                    \
        float r;                                                                         \
        asm("cvt." #nv ".f32.u32 %0, %1;" : "=f"(r) : "r"(a));                           \
        return r;                                                                        \
    }                                                                                    \
    GL_DEV float __ll2float_##sfx(long long a)                                          \
    {                                                                                    \
        float r;                                                                         \
        asm("cvt." #nv ".f32.s64 %0, %1;" : "=f"(r) : "l"(a));                           \
        return r;                                                                        \
    }                                                                                    \
    GL_DEV float __ull2float_##sfx(unsigned long long a)                                \
    {                                                                                    \
        float r;                                                                         \
        asm("cvt." #nv ".f32.u64 %0, %1;" : "=f"(r) : "l"(a));                           \
        return r;                                                                        \
    }                                                                                    \
    GL_DEV double __ll2double_##sfx(long long a)                                        \
    {                                                                                    \
        double r;                                                                        \
        asm("cvt." #nv ".f64.s64 %0, %1;" : "=d"(r) : "l"(a));                           \
        return r;                                                                        \
    }                                                                                    \
    GL_DEV double __ull2double_##sfx(unsigned long long a)                              \
    {                                                                                    \
        double r;                                                                        \
        asm("cvt." #nv ".f64.u64 %0, %1;" : "=d"(r) : "l"(a));                           \
        return r;                                                                        \
    }
GL_ROUNDED(rn, rn)
GL_ROUNDED(rz, rz)
GL_ROUNDED(rd, rm)
GL_ROUNDED(ru, rp)
#undef GL_ROUNDED
GL_DEV double __int2double_rn(int a) { return (double)a; }
GL_DEV double __uint2double_rn(unsigned a) { return (double)a; }
GL_DEV int __double2hiint(double a) { return __nvvm_d2i_hi(a); }
GL_DEV int __double2loint(double a) { return __nvvm_d2i_lo(a); }
GL_DEV double __hiloint2double(int hi, int lo) { return __nvvm_lohi_i2d(lo, hi); }
GL_DEV long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
GL_DEV double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
/* more fast approximations (§13.2): ex2/lg2/sin/cos/tanh .approx */
GL_DEV float __exp10f(float a) { return __nvvm_ex2_approx_f(a * 3.3219280948873623f); }
GL_DEV float __log10f(float a) { return __nvvm_lg2_approx_f(a) * 0.3010299956639812f; }
GL_DEV float __powf(float a, float b) { return __nvvm_ex2_approx_f(b * __nvvm_lg2_approx_f(a)); }
GL_DEV float __tanf(float a) { return __fdividef(__sinf(a), __cosf(a)); }
GL_DEV float __tanhf(float a) /* tanh.approx.f32 (PTX §9.7.3.x, sm_75+) */
{
    float r;
    asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(a));
    return r;
}
/* 1/sqrt(x) rounded to nearest: computed in double and rounded once more to float (CUDA's
 * libdevice version is correctly rounded; this one can differ in rare ties) */
GL_DEV float __frsqrt_rn(float a)
{
    return __nvvm_d2f_rn(__nvvm_rcp_rn_d(__nvvm_sqrt_rn_d((double)a)));
}
GL_DEV float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
GL_DEV int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
GL_DEV unsigned __float_as_uint(float x) { return __builtin_bit_cast(unsigned, x); }
GL_DEV float __uint_as_float(unsigned x) { return __builtin_bit_cast(float, x); }


/* ------------------------------------------- float math library (§13.1, C11 §7.12) */
/* CUDA's sinf, expf, powf, ... are libdevice routines, which this prelude does not use.
 * These compute in double precision and round once to float, so they are within 1 ulp of
 * the exact result (CUDA's within 1 to 4 ulp: Programming Guide, table "Single-Precision
 * Mathematical Standard Library Functions with Maximum ULP Error"): they give a GPU's
 * result almost always and may differ from it in the last bit. Zeros, infinities and
 * NaNs as C11 Annex F; a NaN result is CUDA's (0x7fffffff). fmodf, remainderf, remquof,
 * frexpf, ldexpf, modff, nextafterf and the like are exact, as CUDA's are. */
#define GL_NANF __int_as_float(0x7fffffff)
#define GL_LN2 0x1.62e42fefa39efp-1
#define GL_LOG2E 0x1.71547652b82fep+0

/* c[0] + x c[1] + ... + x^(n-1) c[n-1] by Horner's rule (clang unrolls it: the
 * coefficients become immediates) */
GL_DEV double gl_poly(double x, const double *c, int n)
{
    double p = c[n - 1];
    for (int i = n - 2; i >= 0; i--)
        p = p * x + c[i];
    return p;
}

/* 2^t (|t| < 2^31): the Taylor series of e^(f ln2) for the fraction f (|f| <= 1/2, 14
 * terms: 4e-18 relative), times 2^k. 0 below 2^-1022, where every float result is 0. */
GL_DEV double gl_exp2(double t)
{
    if (!(t < 1024.0))
        return t != t ? t : __builtin_inf();
    if (t < -1022.0)
        return 0.0;
    const double k = __builtin_rint(t), f = (t - k) * GL_LN2;
    const double c[14] = {1.0,         1.0,           1.0 / 2,        1.0 / 6,
                          1.0 / 24,    1.0 / 120,     1.0 / 720,      1.0 / 5040,
                          1.0 / 40320, 1.0 / 362880,  1.0 / 3628800,  1.0 / 39916800,
                          1.0 / 479001600, 1.0 / 6227020800}; /* 1/i! */
    return gl_poly(f, c, 14) * __builtin_bit_cast(double, (long long)(k + 1023.0) << 52);
}

/* ln(m) for x = m 2^e, m in [sqrt(1/2), sqrt(2)), of a positive normal double x: 2
 * atanh((m - 1) / (m + 1)) by its series (|f| <= 0.172, 11 terms: 1e-18 relative). */
GL_DEV double gl_log_parts(double x, int *e)
{
    const long long b = __builtin_bit_cast(long long, x);
    *e = (int)(b >> 52) - 1023;
    double m = __builtin_bit_cast(double, (b & 0xfffffffffffffLL) | 0x3ff0000000000000LL);
    if (m > 0x1.6a09e667f3bcdp+0) {
        m *= 0.5;
        ++*e;
    }
    const double f = (m - 1.0) / (m + 1.0);
    const double c[11] = {1.0,      1.0 / 3,  1.0 / 5,  1.0 / 7,  1.0 / 9, 1.0 / 11,
                          1.0 / 13, 1.0 / 15, 1.0 / 17, 1.0 / 19, 1.0 / 21}; /* 1/(2i+1) */
    return 2.0 * f * gl_poly(f * f, c, 11);
}
/* log2 of a positive normal double (exact for powers of two) */
GL_DEV double gl_log2(double x)
{
    int e;
    const double l = gl_log_parts(x, &e);
    return (double)e + l * GL_LOG2E;
}
/* ln of a positive normal double */
GL_DEV double gl_log(double x)
{
    int e;
    const double l = gl_log_parts(x, &e);
    return (double)e * GL_LN2 + (l + (double)e * 0x1.abc9e3b39803fp-56);
}

/* sin and cos of |r| <= pi/4 (plus rounding) by their Taylor series (1e-18) */
GL_DEV double gl_sin_kernel(double r)
{
    const double c[8] = {-1.0 / 6,        1.0 / 120,           -1.0 / 5040,
                         1.0 / 362880,     -1.0 / 39916800,     1.0 / 6227020800,
                         -1.0 / 1307674368000, 1.0 / 355687428096000}; /* (-1)^i/(2i+3)! */
    const double r2 = r * r;
    return r + r * r2 * gl_poly(r2, c, 8);
}
GL_DEV double gl_cos_kernel(double r)
{
    const double c[9] = {-1.0 / 2,           1.0 / 24,          -1.0 / 720,
                         1.0 / 40320,        -1.0 / 3628800,    1.0 / 479001600,
                         -1.0 / 87178291200, 1.0 / 20922789888000,
                         -1.0 / 6402373705728000}; /* (-1)^(i+1)/(2i+2)! */
    const double r2 = r * r;
    return 1.0 + r2 * gl_poly(r2, c, 9);
}

/* a + b as hi + lo exactly (Knuth's two-sum) */
GL_DEV void gl_two_sum(double a, double b, double *hi, double *lo)
{
    const double s = a + b, bb = s - a;
    *hi = s;
    *lo = (a - (s - bb)) + (b - bb);
}
/* v - 4 floor(v / 4), exactly: v mod 4 in [0, 4) */
GL_DEV double gl_mod4(double v) { return v - 4.0 * __builtin_floor(v * 0.25); }

/* r = x - q pi/2 with |r| <= pi/4 (plus rounding), q mod 4 in *q, for a finite float x:
 * Cody-Waite with pi/2 in three doubles below 2^20; above, Payne-Hanek: x 2/pi mod 4
 * from 2/pi in six doubles (322 bits), each product split exactly with fma and reduced
 * mod 4, summed in double-double. */
GL_DEV double gl_rem_pio2(float x, int *q)
{
    const double xd = x;
    if (__builtin_fabs(xd) <= 0x1.921fb54442d18p-1) { /* |x| <= pi/4: itself (keeps -0) */
        *q = 0;
        return xd;
    }
    if (__builtin_fabs(xd) < 0x1p20) {
        const double k = __builtin_rint(xd * 0x1.45f306dc9c883p-1);
        double r = __builtin_fma(-k, 0x1.921fb54442d18p+0, xd);
        r = __builtin_fma(-k, 0x1.1a62633145c07p-54, r);
        r = __builtin_fma(-k, -0x1.f1976b7ed8fbcp-110, r);
        *q = (int)((long long)k & 3);
        return r;
    }
    const double c[6] = {0x1.45f306dc9c883p-1,  -0x1.6b01ec5417056p-55,
                         -0x1.6447e493ad4cep-109, 0x1.e21c820ff28b2p-163,
                         -0x1.508510ea79237p-218, 0x1.b8e909374b802p-274};
    const double ax = __builtin_fabs(xd);
    double hi = 0.0, lo = 0.0;
    for (int i = 0; i < 6; i++) {
        const double p = ax * c[i], e = __builtin_fma(ax, c[i], -p);
        double s, t;
        gl_two_sum(hi, gl_mod4(p), &s, &t);
        lo += t;
        gl_two_sum(s, gl_mod4(e), &hi, &t);
        lo += t;
        hi = gl_mod4(hi);
    }
    gl_two_sum(hi, lo, &hi, &lo);
    const double k = __builtin_rint(hi);
    hi -= k; /* exact: |hi - k| <= 1/2 */
    gl_two_sum(hi, lo, &hi, &lo);
    int n = (int)((long long)k & 3);
    double r = __builtin_fma(hi, 0x1.921fb54442d18p+0,
                             __builtin_fma(hi, 0x1.1a62633145c07p-54, lo * 0x1.921fb54442d18p+0));
    if (x < 0.0f) {
        r = -r;
        n = (4 - n) & 3;
    }
    *q = n;
    return r;
}

GL_DEV float sinf(float x)
{
    if (!__builtin_isfinite(x) || x == 0.0f)
        return x == 0.0f ? x : GL_NANF; /* sin(-0) = -0 */
    int q;
    const double r = gl_rem_pio2(x, &q);
    const double v = (q & 1) ? gl_cos_kernel(r) : gl_sin_kernel(r);
    return (float)((q & 2) ? -v : v);
}
GL_DEV float cosf(float x)
{
    if (!__builtin_isfinite(x))
        return GL_NANF;
    int q;
    const double r = gl_rem_pio2(x, &q);
    const double v = (q & 1) ? gl_sin_kernel(r) : gl_cos_kernel(r);
    return (float)(((q + 1) & 2) ? -v : v);
}
GL_DEV void sincosf(float x, float *s, float *c)
{
    *s = sinf(x);
    *c = cosf(x);
}
GL_DEV float tanf(float x)
{
    if (!__builtin_isfinite(x) || x == 0.0f)
        return x == 0.0f ? x : GL_NANF;
    int q;
    const double r = gl_rem_pio2(x, &q);
    const double sn = gl_sin_kernel(r), cs = gl_cos_kernel(r);
    return (float)((q & 1) ? -cs / sn : sn / cs);
}
GL_DEV float expf(float x) { return (float)gl_exp2((double)x * GL_LOG2E); }
GL_DEV float exp2f(float x) { return (float)gl_exp2((double)x); }
GL_DEV float exp10f(float x) { return (float)gl_exp2((double)x * 0x1.a934f0979a371p+1); }
/* logf and friends: NaN below 0, -inf at 0, x itself at +inf and NaN */
#define GL_LOGF(name, expr)                                                               \
    GL_DEV float name(float x)                                                            \
    {                                                                                     \
        if (!(x > 0.0f) || __builtin_isinf(x))                                            \
            return x == 0.0f ? -__builtin_inff() : x > 0.0f ? x : GL_NANF;                \
        return (float)(expr);                                                             \
    }
GL_LOGF(logf, gl_log((double)x))
GL_LOGF(log2f, gl_log2((double)x))
GL_LOGF(log10f, gl_log((double)x) * 0x1.bcb7b1526e50ep-2)
#undef GL_LOGF
GL_DEV float log1pf(float x)
{
    if (!(x > -1.0f) || __builtin_isinf(x))
        return x == -1.0f ? -__builtin_inff() : x > 0.0f ? x : GL_NANF;
    const double d = x;
    if (__builtin_fabs(d) < 0x1p-20) /* 1 + x would round: the series */
        return (float)(d - d * d * (0.5 - d / 3.0));
    return (float)gl_log(1.0 + d); /* 1 + x is exact here */
}
GL_DEV float expm1f(float x)
{
    const double d = x;
    if (__builtin_fabs(d) < 0x1p-20)
        return x == 0.0f ? x : (float)(d + d * d * (0.5 + d / 6.0));
    return (float)(gl_exp2(d * GL_LOG2E) - 1.0);
}

/* whether a float is an odd integer */
GL_DEV int gl_odd_int(float y)
{
    return __builtin_fabsf(y) < 0x1p24f && __builtin_truncf(y) == y && ((long long)y & 1);
}
/* x^y (C11 F.10.4.4 for the special cases): 2^(y log2 |x|) in double */
GL_DEV float powf(float x, float y)
{
    if (y == 0.0f || x == 1.0f)
        return 1.0f;
    if (x != x || y != y)
        return GL_NANF;
    const float ax = __builtin_fabsf(x);
    const int odd = gl_odd_int(y);
    if (__builtin_isinf(y)) {
        if (ax == 1.0f)
            return 1.0f;
        return (ax < 1.0f) == (y < 0.0f) ? __builtin_inff() : 0.0f;
    }
    if (x == 0.0f || __builtin_isinf(x)) { /* 0 or infinity to a finite power */
        const float mag = (x == 0.0f) == (y < 0.0f) ? __builtin_inff() : 0.0f;
        return odd && __builtin_signbit(x) ? -mag : mag;
    }
    if (x < 0.0f && __builtin_truncf(y) != y)
        return GL_NANF;
    const float r = (float)gl_exp2((double)y * gl_log2((double)ax));
    return x < 0.0f && odd ? -r : r;
}

/* tanh: the series below 1/16, else 1 - 2 / (e^2|x| + 1); +-1 from 9.1 on */
GL_DEV float tanhf(float x)
{
    const double d = x, a = __builtin_fabs(d);
    if (x != x || x == 0.0f)
        return x == 0.0f ? x : GL_NANF; /* tanh(-0) = -0 */
    if (a < 0.0625) {
        const double c[5] = {-1.0 / 3, 2.0 / 15, -17.0 / 315, 62.0 / 2835, -1382.0 / 155925};
        const double d2 = d * d;
        return (float)(d + d * d2 * gl_poly(d2, c, 5));
    }
    const double t = a > 9.1 ? 1.0 : 1.0 - 2.0 / (gl_exp2(2.0 * a * GL_LOG2E) + 1.0);
    return (float)(x < 0.0f ? -t : t);
}

/* erf: 2/sqrt(pi) sum (-x^2)^n x / (n! (2n + 1)) in double (at most 4e6 times the
 * result in the largest term at |x| = 3.92: 30 bits left); +-1 from 3.92 on */
GL_DEV float erff(float x)
{
    if (x != x || x == 0.0f)
        return x == 0.0f ? x : GL_NANF;
    const double d = x, x2 = d * d;
    if (__builtin_fabs(d) >= 3.92)
        return x < 0.0f ? -1.0f : 1.0f;
    double term = d, sum = d;
    for (int n = 1; n < 120; n++) {
        term *= -x2 / n;
        const double add = term / (2 * n + 1);
        sum += add;
        if (__builtin_fabs(add) < 1e-17 * __builtin_fabs(sum))
            break;
    }
    return (float)(sum * 0x1.20dd750429b6dp+0);
}
GL_DEV float hypotf(float x, float y)
{
    if (__builtin_isinf(x) || __builtin_isinf(y))
        return __builtin_inff();
    const double a = x, b = y; /* the squares are exact in double */
    return (float)__builtin_sqrt(a * a + b * b);
}
GL_DEV float cbrtf(float x)
{
    if (x == 0.0f || !__builtin_isfinite(x))
        return x + x;
    const double a = __builtin_fabs((double)x);
    double r = gl_exp2(gl_log2(a) / 3.0);
    r -= (r * r * r - a) / (3.0 * r * r); /* one Newton step */
    return (float)(x < 0.0f ? -r : r);
}

/* atan of any double (1e-17 relative): atan(1/|t|) = pi/2 - atan(|t|) above 1, then
 * atan(x) = pi/6 + atan((x sqrt(3) - 1) / (x + sqrt(3))) above tan(pi/12), then the
 * series (|x| <= 0.268, 16 terms) */
GL_DEV double gl_atan(double t)
{
    const double a = __builtin_fabs(t);
    const int inv = a > 1.0;
    double x = inv ? 1.0 / a : a, base = 0.0;
    if (x > 0.2679491924311227) {
        x = (x * 0x1.bb67ae8584caap+0 - 1.0) / (x + 0x1.bb67ae8584caap+0);
        base = 0x1.0c152382d7366p-1; /* pi/6 */
    }
    const double x2 = x * x;
    double p = -1.0 / 31.0; /* sum of (-1)^k x^2k / (2k + 1), k = 0..15 */
    for (int k = 14; k >= 0; k--)
        p = (k & 1 ? -1.0 : 1.0) / (2 * k + 1) + x2 * p;
    double r = base + x * p;
    if (inv)
        r = 0x1.921fb54442d18p+0 - r;
    return t < 0.0 ? -r : r;
}
GL_DEV float atanf(float x) { return x == 0.0f ? x : (float)gl_atan((double)x); }
/* atan2 (C11 F.10.1.4 for zeros and infinities) */
GL_DEV float atan2f(float y, float x)
{
    const double pi = 0x1.921fb54442d18p+1;
    if (x != x || y != y)
        return GL_NANF;
    const int ny = __builtin_signbit(y), nx = __builtin_signbit(x);
    if (__builtin_isinf(y))
        return (float)((ny ? -1.0 : 1.0) * (__builtin_isinf(x) ? (nx ? 0.75 : 0.25) * pi : 0.5 * pi));
    if (y == 0.0f || __builtin_isinf(x)) /* +-0 or +-pi with the sign of y */
        return nx ? (float)(ny ? -pi : pi) : (ny ? -0.0f : 0.0f);
    if (x == 0.0f)
        return (float)(ny ? -0.5 * pi : 0.5 * pi);
    const double r = gl_atan((double)y / (double)x);
    return (float)(x > 0.0f ? r : ny ? r - pi : r + pi);
}
/* asin and acos through atan of a quotient (1 - x^2 is exact in double near |x| = 1) */
GL_DEV float asinf(float x)
{
    if (!(__builtin_fabsf(x) <= 1.0f))
        return GL_NANF;
    if (x == 0.0f)
        return x;
    const double d = x;
    return (float)gl_atan(d / __builtin_sqrt(1.0 - d * d));
}
GL_DEV float acosf(float x)
{
    if (!(__builtin_fabsf(x) <= 1.0f))
        return GL_NANF;
    const double d = x, s = __builtin_sqrt(1.0 - d * d);
    if (x == 0.0f)
        return (float)0x1.921fb54442d18p+0;
    const double r = gl_atan(s / __builtin_fabs(d));
    return (float)(x > 0.0f ? r : 0x1.921fb54442d18p+1 - r);
}
/* sinh and cosh from e^|x| (sinh by its series below 1/2: no cancellation) */
GL_DEV float sinhf(float x)
{
    const double d = x, a = __builtin_fabs(d);
    if (x != x || x == 0.0f)
        return x == 0.0f ? x : GL_NANF;
    if (a < 0.5) {
        const double c[8] = {1.0 / 6,          1.0 / 120,         1.0 / 5040,
                             1.0 / 362880,     1.0 / 39916800,    1.0 / 6227020800,
                             1.0 / 1307674368000, 1.0 / 355687428096000}; /* 1/(2i+3)! */
        const double d2 = d * d;
        return (float)(d + d * d2 * gl_poly(d2, c, 8));
    }
    const double e = gl_exp2(a * GL_LOG2E), r = 0.5 * (e - 1.0 / e);
    return (float)(x < 0.0f ? -r : r);
}
GL_DEV float coshf(float x)
{
    if (x != x)
        return GL_NANF;
    const double e = gl_exp2(__builtin_fabs((double)x) * GL_LOG2E);
    return (float)(0.5 * (e + 1.0 / e));
}
/* the inverse hyperbolic functions: their series near 0, else their logarithms */
GL_DEV float asinhf(float x)
{
    if (x != x || x == 0.0f || __builtin_isinf(x))
        return x == x ? x : GL_NANF;
    const double s = __builtin_fabs((double)x), s2 = s * s;
    double r;
    if (s < 0.0625) {
        const double c[6] = {-1.0 / 6, 3.0 / 40, -5.0 / 112, 35.0 / 1152, -63.0 / 2816,
                             231.0 / 13312};
        r = s + s * s2 * gl_poly(s2, c, 6);
    } else {
        r = gl_log(s + __builtin_sqrt(s2 + 1.0));
    }
    return (float)(x < 0.0f ? -r : r);
}
GL_DEV float acoshf(float x)
{
    if (!(x >= 1.0f))
        return GL_NANF;
    if (__builtin_isinf(x))
        return x;
    const double d = x;
    return (float)gl_log(d + __builtin_sqrt((d - 1.0) * (d + 1.0)));
}
GL_DEV float atanhf(float x)
{
    const double d = x, a = __builtin_fabs(d);
    if (!(a <= 1.0) || x == 0.0f)
        return x == 0.0f ? x : GL_NANF;
    if (a == 1.0)
        return x < 0.0f ? -__builtin_inff() : __builtin_inff();
    double r;
    if (a < 0.0625) {
        const double d2 = d * d;
        double p = 1.0 / 15.0;
        for (int k = 13; k >= 3; k -= 2)
            p = 1.0 / k + d2 * p;
        r = a + a * d2 * p;
    } else {
        r = 0.5 * gl_log((1.0 + a) / (1.0 - a));
    }
    return (float)(x < 0.0f ? -r : r);
}

/* ------------------------------------- exact float functions (§13.1, C11 §7.12) */
/* x 2^n exactly, for a double x from a float and any n: one rounding, to float */
GL_DEV float gl_scale(double x, long long n)
{
    n = n < -400 ? -400 : n > 400 ? 400 : n; /* beyond: 0 or infinity for any float x */
    return (float)(x * __builtin_bit_cast(double, (n + 1023) << 52));
}
GL_DEV float ldexpf(float x, int n) { return gl_scale(x, n); }
GL_DEV float scalbnf(float x, int n) { return gl_scale(x, n); }
GL_DEV float scalblnf(float x, long n) { return gl_scale(x, n); }
/* the unbiased exponent of a finite nonzero float (subnormals normalised) */
GL_DEV int gl_ilogb(float x)
{
    const unsigned u = __builtin_bit_cast(unsigned, x) & 0x7fffffffu;
    return u >= 0x800000u ? (int)(u >> 23) - 127 : -118 - __builtin_clz(u);
}
GL_DEV int ilogbf(float x)
{
    if (x == 0.0f || x != x)
        return -2147483647 - 1; /* FP_ILOGB0 and FP_ILOGBNAN are INT_MIN, as CUDA's */
    return __builtin_isinf(x) ? 2147483647 : gl_ilogb(x);
}
GL_DEV float logbf(float x)
{
    if (x == 0.0f)
        return -__builtin_inff();
    if (!__builtin_isfinite(x))
        return x * x;
    return (float)gl_ilogb(x);
}
GL_DEV float frexpf(float x, int *e)
{
    if (x == 0.0f || !__builtin_isfinite(x)) {
        *e = 0;
        return x + x;
    }
    *e = gl_ilogb(x) + 1;
    return gl_scale(x, -*e);
}
GL_DEV float modff(float x, float *ip)
{
    *ip = __builtin_truncf(x);
    return __builtin_copysignf(__builtin_isinf(x) ? 0.0f : x - *ip, x);
}
GL_DEV float fdimf(float x, float y)
{
    return x > y ? x - y : (x != x || y != y) ? GL_NANF : 0.0f;
}
GL_DEV float nearbyintf(float x) { return __builtin_rintf(x); }
GL_DEV long long llrintf(float x) { return __float2ll_rn(x); }
GL_DEV long lrintf(float x) { return (long)__float2ll_rn(x); }
GL_DEV long long llroundf(float x) { return __float2ll_rz(__builtin_roundf(x)); }
GL_DEV long lroundf(float x) { return (long)__float2ll_rz(__builtin_roundf(x)); }
GL_DEV float nextafterf(float x, float y)
{
    if (x != x || y != y)
        return GL_NANF;
    if (x == y)
        return y;
    if (x == 0.0f)
        return __builtin_copysignf(__int_as_float(1), y);
    const int u = __float_as_int(x);
    return __int_as_float((x < y) == (x > 0.0f) ? u + 1 : u - 1);
}
/* |x| mod |y| for finite x, nonzero finite y with |x| >= |y|: the remainder of the
 * integer significands, shifted in at most 32 bits at a time (exact); the low three bits
 * of the quotient in *q */
GL_DEV float gl_fmod_abs(float x, float y, unsigned *q)
{
    const unsigned ux = __builtin_bit_cast(unsigned, x) & 0x7fffffffu;
    const unsigned uy = __builtin_bit_cast(unsigned, y) & 0x7fffffffu;
    const int ex = ux >> 23 ? (int)(ux >> 23) : 1, ey = uy >> 23 ? (int)(uy >> 23) : 1;
    const unsigned long long mx = (ux & 0x7fffffu) | (ux >> 23 ? 0x800000u : 0u);
    const unsigned long long my = (uy & 0x7fffffu) | (uy >> 23 ? 0x800000u : 0u);
    unsigned long long r = mx % my;
    unsigned qq = (unsigned)(mx / my); /* the quotient's low bits so far */
    for (int d = ex - ey; d > 0;) {
        const int s = d > 32 ? 32 : d;
        const unsigned long long v = r << s;
        qq = (s >= 3 ? 0u : qq << s) + (unsigned)(v / my); /* its low 3 bits */
        r = v % my;
        d -= s;
    }
    *q = qq & 7;
    return gl_scale((double)r, ey - 150);
}
GL_DEV float fmodf(float x, float y)
{
    if (x != x || y != y || __builtin_isinf(x) || y == 0.0f)
        return GL_NANF;
    if (__builtin_fabsf(x) < __builtin_fabsf(y))
        return x; /* also y infinite */
    unsigned q;
    return __builtin_copysignf(gl_fmod_abs(x, y, &q), x);
}
/* x - n y for n the integer nearest x / y (ties to even); the low three bits of n, with
 * the sign of x / y, in *quo */
GL_DEV float remquof(float x, float y, int *quo)
{
    *quo = 0;
    if (x != x || y != y || __builtin_isinf(x) || y == 0.0f)
        return GL_NANF;
    if (__builtin_isinf(y))
        return x;
    const float ay = __builtin_fabsf(y);
    unsigned q = 0;
    float r = __builtin_fabsf(x) < ay ? __builtin_fabsf(x) : gl_fmod_abs(x, y, &q);
    if (2.0 * r > ay || (2.0 * r == ay && (q & 1))) { /* exact in double */
        r -= ay;
        q++;
    }
    const int neg = (x < 0.0f) != (y < 0.0f);
    *quo = neg ? -(int)(q & 7) : (int)(q & 7);
    return __builtin_copysignf(1.0f, x) * r;
}
GL_DEV float remainderf(float x, float y)
{
    int q;
    return remquof(x, y, &q);
}
/* the SIMD video intrinsics (__vadd4, __vabsdiffu4, ...): in include/gpulearn/, using
 * GL_DEV */
#include <gpulearn/simd_video.h>
/* the double-precision math library and the float special functions (erfcf, lgammaf,
 * ...): in include/gpulearn/, using GL_DEV and the float library's helpers */
#include <gpulearn/math_extra.h>
#undef GL_NANF
#undef GL_LN2
#undef GL_LOG2E
#undef GL_DEV

/* ------------------------------------------------ math.h constants (C11 §7.12) */
/* nvcc includes the CUDA runtime headers, and with them math.h, in every .cu file, so a
 * kernel may write INFINITY, NAN, HUGE_VAL or M_PI without an #include; so may it here.
 * NAN is the quiet NaN 0x7fc00000, as nvcc's (glibc's __builtin_nanf("")). */
#ifndef INFINITY
#define INFINITY __builtin_inff()
#endif
#ifndef NAN
#define NAN __builtin_nanf("")
#endif
#ifndef HUGE_VALF
#define HUGE_VALF __builtin_huge_valf()
#define HUGE_VAL __builtin_huge_val()
#endif
#include <gpulearn/posix_math.h>
#endif
