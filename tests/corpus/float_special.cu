// NaN (and the bit patterns of NaN results), infinities and -0.0: fminf/fmaxf (NaN loses), copysignf, fabsf, isnan/isinf/isfinite/signbit, ordered and unordered compares.
extern "C" __global__ void float_special(const float *a, const float *b, float *o, int *p, int *bits, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    o[i * 6 + 0] = fminf(x, y);
    o[i * 6 + 1] = fmaxf(x, y);
    o[i * 6 + 2] = copysignf(x, y);
    o[i * 6 + 3] = fabsf(x) - y;
    o[i * 6 + 4] = x * y;
    o[i * 6 + 5] = x < y ? x : y;
    for (int k = 0; k < 6; ++k)
        bits[i * 6 + k] = __float_as_int(o[i * 6 + k]);
    p[i] = isnan(x) | isinf(x) << 1 | isfinite(y) << 2 | (signbit(x) != 0) << 3 | (x == y) << 4 | (x != y) << 5 |
           (x < y) << 6 | (x <= y) << 7 | !(x >= y) << 8 | !(x > y) << 9 | (x == x) << 10 | (y + 0.0f == 0.0f) << 11;
}
