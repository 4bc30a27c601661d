// The double-precision math library and the float special functions with every compiler:
// libdevice's routines (nvcc, NVRTC) and the clang prelude's (runtime/prelude/include/
// gpulearn/math_extra.h: double-double arithmetic, within 1 ulp) must both be within the
// bounds in README.md of the GPU's values. sin and cos also far from zero (1e5 x: Cody-Waite
// reduction; 1e300 x: Payne-Hanek), exp2 and pow to large results.
#include <math.h>

extern "C" __global__ void approx_libm_f64(const double *x, const double *y, double *od,
                                           float *o, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const double a = x[i], b = y[i], p = fabs(a) + 1e-3;
    double *q = od + i * 46;
    q[0] = exp(a);
    q[1] = exp2(a * 40.0);
    q[2] = exp10(a * 0.25);
    q[3] = expm1(a * 0.01);
    q[4] = log(p);
    q[5] = log2(p);
    q[6] = log10(p);
    q[7] = log1p(a * 0.01);
    q[8] = pow(p, b * 5.0);
    q[9] = sin(a);
    q[10] = cos(a);
    q[11] = tan(a * 0.3);
    q[12] = sin(a * 1e5);
    q[13] = cos(a * 1e8);
    q[14] = sinpi(a * 0.25);
    q[15] = cospi(a * 0.25);
    q[16] = asin(a * 0.05);
    q[17] = acos(a * 0.05);
    q[18] = atan(a);
    q[19] = atan2(a, b - 2.0);
    q[20] = sinh(a * 0.25);
    q[21] = cosh(a * 0.25);
    q[22] = tanh(a * 0.2);
    q[23] = asinh(a);
    q[24] = acosh(p + 1.0);
    q[25] = atanh(a * 0.0495);
    q[26] = cbrt(a);
    q[27] = rcbrt(a);
    q[28] = hypot(a, b);
    q[29] = rhypot(a, b);
    q[30] = erf(a * 0.2);
    q[31] = erfc(a * 0.25);
    q[32] = erfcx(a);
    q[33] = erfinv(a / 20.5);
    q[34] = erfcinv(b * 0.5);
    q[35] = lgamma(p);
    q[36] = tgamma(a * 0.5);
    q[37] = normcdf(a * 0.5);
    q[38] = normcdfinv(b / 4.01);
    q[39] = rsqrt(p);
    double s, c;
    sincos(a * 7.0, &s, &c);
    q[40] = s;
    q[41] = c;
    q[42] = fmod(a, b);
    q[43] = remainder(a, b);
    int e;
    q[44] = frexp(a, &e) + e;
    q[45] = nextafter(a, 0.0);
    const float fa = (float)a, fb = (float)b, fp = fabsf(fa) + 1e-3f;
    float *r = o + i * 12;
    r[0] = erfcf(fa * 0.25f);
    r[1] = erfcxf(fa * 0.25f);
    r[2] = erfinvf(fa / 20.5f);
    r[3] = erfcinvf(fb * 0.5f);
    r[4] = lgammaf(fp);
    r[5] = tgammaf(fa * 0.5f);
    r[6] = normcdff(fa * 0.5f);
    r[7] = normcdfinvf(fb / 4.01f);
    r[8] = sinpif(fa * 0.25f);
    r[9] = cospif(fa * 0.25f);
    r[10] = rcbrtf(fa);
    r[11] = rhypotf(fa, fb);
}
