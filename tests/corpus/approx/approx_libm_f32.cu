// The single-precision math library with every compiler: libdevice's routines (nvcc,
// NVRTC) and the clang prelude's (computed in double, correctly rounded almost always)
// must both be within the bounds in README.md of the GPU's values. sinf and cosf also
// far from zero, where the argument reduction needs 2/pi to many bits.
#include <math.h>

extern "C" __global__ void approx_libm_f32(const float *x, const float *y, float *o, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float a = x[i], b = y[i], p = fabsf(a) + 1e-3f;
    float *r = o + i * 26;
    r[0] = expf(a);
    r[1] = exp2f(a);
    r[2] = exp10f(a * 0.25f);
    r[3] = logf(p);
    r[4] = log2f(p);
    r[5] = log10f(p);
    r[6] = log1pf(a * 0.01f);
    r[7] = expm1f(a * 0.01f);
    r[8] = sinf(a * 10.0f);
    r[9] = cosf(a * 1e5f);
    r[10] = tanf(a * 0.3f);
    r[11] = sinf(a * 1e30f);
    r[12] = powf(p, b);
    r[13] = tanhf(a * 0.2f);
    r[14] = erff(a * 0.2f);
    r[15] = hypotf(a, b);
    r[16] = cbrtf(a);
    r[17] = atanf(a);
    r[18] = atan2f(a, b - 2.0f);
    r[19] = asinf(a * 0.05f);
    r[20] = acosf(a * 0.05f);
    r[21] = sinhf(a * 0.25f);
    r[22] = coshf(a * 0.25f);
    r[23] = asinhf(a);
    r[24] = acoshf(p + 1.0f);
    r[25] = atanhf(a * 0.0495f);
}
