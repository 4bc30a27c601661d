/* gpulearn_prelude.h — what a CUDA kernel needs from the CUDA headers, for clang's NVPTX
 * back end without a CUDA Toolkit. Passed with `-include` to
 *   clang --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_75 -S -O2
 * Everything here maps onto clang builtins (__nvvm_*, __builtin_*) or inline PTX, so no
 * libdevice is needed. Not provided (they need libdevice's __nv_* functions): sinf, cosf,
 * tanf, powf, erff and the double-precision transcendental functions; use the fast
 * intrinsics __sinf/__cosf/__expf/__logf instead. expf/exp2f/logf/log2f are provided
 * as those fast approximations (not CUDA's 2-ulp versions).
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

#define GL_DEV __device__ static __inline__ __attribute__((always_inline))

typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;

/* threadIdx, blockIdx, blockDim, gridDim, warpSize (§7.4): clang's own header. */
#include <__clang_cuda_builtin_vars.h>

/* ------------------------------------------------------------ vector types (§7.3.1) */
struct __attribute__((aligned(8))) int2 { int x, y; };
struct __attribute__((aligned(16))) int4 { int x, y, z, w; };
struct __attribute__((aligned(8))) uint2 { unsigned x, y; };
struct __attribute__((aligned(16))) uint4 { unsigned x, y, z, w; };
struct __attribute__((aligned(8))) float2 { float x, y; };
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };
struct float3 { float x, y, z; };
struct int3 { int x, y, z; };
struct uint3 { unsigned x, y, z; };
struct dim3 {
    unsigned x, y, z;
    __host__ __device__ constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1)
        : x(vx), y(vy), z(vz) {}
    __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
/* clang's builtin-variable header declares these conversions; CUDA's headers define them. */
#define GL_BUILTIN_CONV(T)                                                                \
    __device__ inline T::operator dim3() const { return dim3(x, y, z); }                   \
    __device__ inline T::operator uint3() const { return {x, y, z}; }
GL_BUILTIN_CONV(__cuda_builtin_threadIdx_t)
GL_BUILTIN_CONV(__cuda_builtin_blockIdx_t)
GL_BUILTIN_CONV(__cuda_builtin_blockDim_t)
GL_BUILTIN_CONV(__cuda_builtin_gridDim_t)
#undef GL_BUILTIN_CONV
GL_DEV int2 make_int2(int x, int y) { int2 v = {x, y}; return v; }
GL_DEV int4 make_int4(int x, int y, int z, int w) { int4 v = {x, y, z, w}; return v; }
GL_DEV float2 make_float2(float x, float y) { float2 v = {x, y}; return v; }
GL_DEV float3 make_float3(float x, float y, float z) { float3 v = {x, y, z}; return v; }
GL_DEV float4 make_float4(float x, float y, float z, float w) { float4 v = {x, y, z, w}; return v; }

/* ---------------------------------------------------------------- printf (§7.33) */
/* clang lowers device printf to the driver's vprintf. */
extern "C" __device__ int printf(const char *, ...);

/* --------------------------------------------- synchronisation (§7.6, PTX §9.7.12) */
GL_DEV void __syncwarp(unsigned mask = 0xffffffffu)
{
    asm volatile("bar.warp.sync %0;" : : "r"(mask) : "memory");
}
GL_DEV void __threadfence_block(void) { __nvvm_membar_cta(); }
GL_DEV void __threadfence(void) { __nvvm_membar_gl(); }
GL_DEV void __threadfence_system(void) { __nvvm_membar_sys(); }
GL_DEV int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
GL_DEV int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
GL_DEV int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }
/* __syncthreads() is a clang builtin (bar.sync 0). */

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
GL_DEV unsigned __activemask(void)
{
    unsigned m;
    asm volatile("activemask.b32 %0;" : "=r"(m));
    return m;
}
GL_DEV unsigned __lanemask_lt(void) { return __nvvm_read_ptx_sreg_lanemask_lt(); }

/* ----------------------------------------------------- integer intrinsics (§13.2) */
GL_DEV int __popc(unsigned x) { return __builtin_popcount(x); }
GL_DEV int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
GL_DEV int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
GL_DEV int __ffs(int x) { return __builtin_ffs(x); }
GL_DEV unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
GL_DEV int __mulhi(int a, int b) { return __nvvm_mulhi_i(a, b); }
GL_DEV unsigned __umulhi(unsigned a, unsigned b) { return __nvvm_mulhi_ui(a, b); }
GL_DEV int __mul24(int a, int b) { return __nvvm_mul24_i(a, b); }

/* --------------------------------------------------------------- math (§13.1, §13.3) */
GL_DEV int min(int a, int b) { return a < b ? a : b; }
GL_DEV int max(int a, int b) { return a > b ? a : b; }
GL_DEV unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
GL_DEV unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
GL_DEV long long min(long long a, long long b) { return a < b ? a : b; }
GL_DEV long long max(long long a, long long b) { return a > b ? a : b; }
GL_DEV float min(float a, float b) { return __builtin_fminf(a, b); }
GL_DEV float max(float a, float b) { return __builtin_fmaxf(a, b); }
GL_DEV int abs(int a) { return a < 0 ? -a : a; }
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
/* expf/logf are these approximations here: CUDA's precise versions live in libdevice,
 * which this prelude does not use (results may differ from nvcc's in the last bits,
 * more for large |x|). */
GL_DEV float expf(float a) { return __expf(a); }
GL_DEV float exp2f(float a) { return __exp2f(a); }
GL_DEV float logf(float a) { return __logf(a); }
GL_DEV float log2f(float a) { return __log2f(a); }
GL_DEV float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
GL_DEV int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
GL_DEV unsigned __float_as_uint(float x) { return __builtin_bit_cast(unsigned, x); }
GL_DEV float __uint_as_float(unsigned x) { return __builtin_bit_cast(float, x); }

#undef GL_DEV
#endif
