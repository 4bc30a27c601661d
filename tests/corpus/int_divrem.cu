// Integer division and remainder: signed by negatives (truncation toward zero), unsigned, 64-bit, and by constants (magic numbers).
extern "C" __global__ void int_divrem(const int *a, const int *b, int *o, long long *o64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    if (y == 0)
        y = -3;
    if (x == -2147483647 - 1 && y == -1)
        y = 7;
    unsigned ux = (unsigned)x, uy = (unsigned)y;
    o[i * 8 + 0] = x / y;
    o[i * 8 + 1] = x % y;
    o[i * 8 + 2] = (int)(ux / uy);
    o[i * 8 + 3] = (int)(ux % uy);
    o[i * 8 + 4] = x / 7;
    o[i * 8 + 5] = x % -13;
    o[i * 8 + 6] = (int)(ux / 10u);
    o[i * 8 + 7] = x / 16 + x % 8;
    long long X = (long long)x * 1000003LL, Y = (long long)y * 37LL;
    o64[i * 4 + 0] = X / Y;
    o64[i * 4 + 1] = X % Y;
    o64[i * 4 + 2] = (long long)((unsigned long long)X / (unsigned long long)Y);
    o64[i * 4 + 3] = X / -1000LL;
}
