// Integer multiply variants: mul.lo, __mulhi/__umulhi, __mul64hi/__umul64hi, widening 32x32->64, __mul24/__umul24, mad.
extern "C" __global__ void int_mulhi_wide(const int *a, const int *b, int *o32, long long *o64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    unsigned ux = (unsigned)x, uy = (unsigned)y;
    o32[i * 6 + 0] = x * y;
    o32[i * 6 + 1] = __mulhi(x, y);
    o32[i * 6 + 2] = (int)__umulhi(ux, uy);
    o32[i * 6 + 3] = __mul24(x, y);
    o32[i * 6 + 4] = (int)__umul24(ux, uy);
    o32[i * 6 + 5] = x * y + (x ^ y);
    long long X = (long long)x * 0x10001LL + y, Y = (long long)y * -77777LL;
    o64[i * 5 + 0] = (long long)x * y;
    o64[i * 5 + 1] = (long long)((unsigned long long)ux * uy);
    o64[i * 5 + 2] = __mul64hi(X, Y);
    o64[i * 5 + 3] = (long long)__umul64hi((unsigned long long)X, (unsigned long long)Y);
    o64[i * 5 + 4] = X * Y + X;
}
