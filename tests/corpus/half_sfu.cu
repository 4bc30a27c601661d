// cuda_fp16.h's and cuda_bf16.h's special functions over their whole range (2048 bit
// patterns of each type, every 32nd: both signs, subnormals, infinities, NaNs), each
// result stored as its bits. They run on the special-function unit through its f16/bf16
// forms (ex2.approx.f16, tanh.approx.f16/.bf16 and their .x2 forms) or its f32 forms
// (hexp, hexp10, hrcp, hrsqrt, hsqrt, hlog2, hlog, hsin, hcos: ex2, rcp, rsqrt, sqrt,
// lg2, sin, cos .approx.ftz.f32), all of which the simulator gives bit for bit
// (sim/sfu.h), so it must equal the GPU exactly.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

extern "C" __global__ void half_sfu(unsigned short *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const unsigned short bits = (unsigned short)(i << 5 | (i & 31));
    const __half x = __ushort_as_half(bits);
    const __nv_bfloat16 b = __ushort_as_bfloat16(bits);
    const __half2 x2 = __halves2half2(x, __ushort_as_half((unsigned short)(bits ^ 0x8001)));
    const __half2 e2 = h2exp2(x2), t2 = h2tanh_approx(x2);
    const unsigned short r[24] = {
        __half_as_ushort(hexp2(x)),      __half_as_ushort(hexp(x)),
        __half_as_ushort(hexp10(x)),     __half_as_ushort(htanh_approx(x)),
        __half_as_ushort(hrcp(x)),       __half_as_ushort(hrsqrt(x)),
        __half_as_ushort(hsqrt(x)),      __half_as_ushort(__low2half(e2)),
        __half_as_ushort(__high2half(e2)), __half_as_ushort(__high2half(t2)),
        __bfloat16_as_ushort(hexp2(b)),  __bfloat16_as_ushort(hexp(b)),
        __bfloat16_as_ushort(htanh_approx(b)), __bfloat16_as_ushort(hrcp(b)),
        __bfloat16_as_ushort(hrsqrt(b)), __bfloat16_as_ushort(hsqrt(b)),
        __half_as_ushort(hlog2(x)),      __half_as_ushort(hlog(x)),
        __half_as_ushort(hlog10(x)),     __half_as_ushort(hsin(x)),
        __half_as_ushort(hcos(x)),       __bfloat16_as_ushort(hlog2(b)),
        __bfloat16_as_ushort(hsin(b)),   __bfloat16_as_ushort(hcos(b))};
    for (int k = 0; k < 24; k++)
        o[i * 24 + k] = r[k];
}
