// Integer and float intrinsics that compile to prmt, shf, lop3, bfe/bfi, brev, clz, fns,
// popc, bfind, sad, mul.hi, mul24, fast math, half precision. Needs CUDA headers (nvcc).
#include <cuda_fp16.h>
extern "C" __global__ void intrinsics(const unsigned *a, const unsigned *b, unsigned *u,
                                      const float *x, float *f, unsigned short *h)
{
    int i = threadIdx.x;
    unsigned p = a[i], q = b[i];
    unsigned *o = u + i * 16;
    o[0] = __byte_perm(p, q, 0x5140);
    o[1] = __funnelshift_l(p, q, i);
    o[2] = __funnelshift_r(p, q, i);
    o[3] = __brev(p);
    o[4] = __clz(p);
    o[5] = __popc(p ^ q);
    o[6] = __ffs(p);
    o[7] = __sad(p, q, 7u);
    o[8] = __umulhi(p, q);
    o[9] = __mul24(p, q);
    o[10] = (p & q) ^ (~p | q) ^ (p >> 3);
    o[11] = (p >> (i % 8 + 4)) & 0xffu;
    o[12] = (unsigned)__mul64hi((long long)p << 20, (long long)q << 17);
    o[13] = __fns(p, 0, 1);
    o[14] = __byte_perm(p, q, 0x7632);
    o[15] = __dp4a(p, q, 5u);
    float v = x[i];
    float *g = f + i * 12;
    g[0] = __fdividef(v, 3.0f);
    g[1] = __expf(v);
    g[2] = __logf(fabsf(v) + 1.0f);
    g[3] = __sinf(v);
    g[4] = __cosf(v);
    g[5] = rsqrtf(fabsf(v) + 1.0f);
    g[6] = __saturatef(v);
    g[7] = fminf(v, 0.5f);
    g[8] = __fmaf_rz(v, 1.1f, 0.3f);
    g[9] = __frcp_rn(v + 3.0f);
    g[10] = __fsqrt_rn(fabsf(v));
    g[11] = __int2float_rz(p);
    __half hv = __float2half(v);
    h[i * 4 + 0] = __half_as_ushort(hv);
    h[i * 4 + 1] = __half_as_ushort(__hadd(hv, __float2half(1.0f)));
    h[i * 4 + 2] = __half_as_ushort(__hmul(hv, hv));
    h[i * 4 + 3] = (unsigned short)__half2float(hv) ;
}
