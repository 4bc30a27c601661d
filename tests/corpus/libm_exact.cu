// libm_exact.cu — the single-precision math functions whose results are exact (C11
// §7.12: fmodf, remainderf, remquof, frexpf, ldexpf, scalbnf, ilogbf, logbf, modff,
// nextafterf, fdimf, lroundf, llrintf, nearbyintf): the same bits as the GPU's with every
// compiler (clang gets the prelude's), on ordinary values and on zeros, infinities,
// NaNs, subnormals and the largest float.
#include <math.h>

__device__ float special(int i)
{
    const float v[16] = {0.0f, -0.0f, __int_as_float(0x7f800000), __int_as_float(0xff800000),
                         __int_as_float(0x7fffffff), 1.0f, -1.0f, __int_as_float(0x00000001),
                         -__int_as_float(0x7f7fffff), 0.5f, 2.0f, -2.0f, 3.0f, -0.5f, 1e-30f,
                         -7.25f};
    return v[i & 15];
}

extern "C" __global__ void libm_exact(const float *in, float *o, int *io)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    /* block 0: every pair of special values; block 1: random values */
    const float x = blockIdx.x == 0 ? special(t) : in[2 * threadIdx.x] * 1000.0f;
    const float y = blockIdx.x == 0 ? special(t >> 4) : in[2 * threadIdx.x + 1];
    float *r = o + t * 14;
    int *k = io + t * 7;
    float ip;
    r[0] = fmodf(x, y);
    r[1] = remainderf(x, y);
    r[2] = remquof(x, y, &k[0]);
    r[3] = frexpf(x, &k[1]);
    r[4] = ldexpf(y, (int)x);
    r[5] = scalbnf(x, -130);
    r[6] = modff(x, &ip);
    r[7] = ip;
    r[8] = nextafterf(x, y);
    r[9] = fdimf(x, y);
    r[10] = logbf(x);
    r[11] = nearbyintf(y * 2.5f);
    r[12] = fmodf(y, x);
    r[13] = remainderf(y, x);
    k[2] = ilogbf(x);
    k[3] = (int)lroundf(y * 2.5f);
    k[4] = (int)llrintf(y * 1.5f);
    k[5] = (int)lroundf(x * 0.001f);
    k[6] = ilogbf(y);
}
