// intrinsics_mix.cu — integer, rounding and warp intrinsics a kernel may combine, with
// every compiler (clang gets them from the prelude: __dp4a and __nanosleep too). Only
// exactly specified operations, so the result is bit-exact.
extern "C" __global__ void intrinsics_mix(const float *in, float *out)
{
    const unsigned t = threadIdx.x;
    const unsigned u = __ldg((const unsigned *)in + t);
    int r = __popc(u) + __clz(u) + __ffs(u) + __brev(u) + __byte_perm(u, t, 0x3210) +
            __funnelshift_l(u, t, 3) + __funnelshift_r(u, t, 5);
    r += __umulhi(u, 12345u) + __mul24((int)t, 3) + __sad((int)t, 5, 1u) +
         __float2int_rn(in[t]) + __float2uint_rz(in[t]) + __mulhi((int)u, 7) + __umul24(t, 9u) +
         __ffsll((long long)u) + __popcll((unsigned long long)u * 3) + __clzll(u);
    float f = __saturatef(in[t]) + __int2float_rn(r) + __uint2float_rz(u) +
              __fmaf_rn(in[t], 2.0f, 1.0f) + __fadd_rz(in[t], 0.1f) + __fmul_rd(in[t], 3.3f) +
              __frcp_rn(in[t] + 1.0f) + __fsqrt_rn(in[t]) + __fdiv_rn(1.0f, in[t] + 1.0f);
    f += __int_as_float(0x3f800000) + __float_as_uint(f) * 0.0f + fminf(f, 2.0f) + fmaxf(f, 1.0f) +
         copysignf(f, -1.0f) + truncf(f) + rintf(f) + nearbyintf(f) + fabsf(f) + fdimf(f, 1.0f) +
         ceilf(f) + sqrtf(f) + __double2float_rn((double)f * 1.1);
    const unsigned m = __ballot_sync(0xffffffffu, t & 1);
    f += __shfl_xor_sync(0xffffffffu, f, 1) + __shfl_sync(0xffffffffu, f, 0, 16) +
         (float)__match_any_sync(0xffffffffu, t / 4) + (float)m;
    f += (float)__dp4a((int)u, (int)t, 1) + (float)__dp4a(u, t * 0x01010101u, 2u);
    __nanosleep(10);
    out[t] = f + (float)r;
}
