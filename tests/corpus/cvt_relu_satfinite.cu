// cvt with .relu and .satfinite to f16, bf16, f16x2 and bf16x2 (PTX ISA §9.7.9.21 cvt:
// .relu clamps negative results to +0 (what NaN gives is left to the GPU's golden);
// .satfinite clamps infinities and values past the largest finite one to it). Written as
// inline PTX since
// cuda_fp16.h has no intrinsic for every form.
extern "C" __global__ void cvt_relu_satfinite(const float *a, const float *b, unsigned *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    unsigned short h0, h1, h2, h3, h4;
    unsigned p0, p1, p2, p3;
    asm("cvt.rn.relu.f16.f32 %0, %1;" : "=h"(h0) : "f"(x));
    asm("cvt.rn.relu.bf16.f32 %0, %1;" : "=h"(h1) : "f"(x));
    asm("cvt.rn.satfinite.f16.f32 %0, %1;" : "=h"(h2) : "f"(x));
    asm("cvt.rn.satfinite.relu.bf16.f32 %0, %1;" : "=h"(h3) : "f"(x));
    asm("cvt.rz.satfinite.bf16.f32 %0, %1;" : "=h"(h4) : "f"(x));
    asm("cvt.rn.relu.f16x2.f32 %0, %1, %2;" : "=r"(p0) : "f"(x), "f"(y));
    asm("cvt.rn.satfinite.bf16x2.f32 %0, %1, %2;" : "=r"(p1) : "f"(x), "f"(y));
    asm("cvt.rz.relu.satfinite.f16x2.f32 %0, %1, %2;" : "=r"(p2) : "f"(x), "f"(y));
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(p3) : "f"(x), "f"(y));
    unsigned *r = o + 9 * i;
    r[0] = h0;
    r[1] = h1;
    r[2] = h2;
    r[3] = h3;
    r[4] = h4;
    r[5] = p0;
    r[6] = p1;
    r[7] = p2;
    r[8] = p3;
}
