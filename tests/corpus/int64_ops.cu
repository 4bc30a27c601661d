// 64-bit integers: add/sub with carry across 32 bits, shifts by variable amounts, signed/unsigned compares, multiply, negate, rotate.
extern "C" __global__ void int64_ops(const long long *a, const long long *b, long long *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long long x = a[i], y = b[i];
    unsigned long long ux = (unsigned long long)x, uy = (unsigned long long)y;
    int s = (int)(uy & 63);
    long long *r = o + i * 10;
    r[0] = (long long)(ux + uy);
    r[1] = (long long)(ux - uy);
    r[2] = x >> s;
    r[3] = (long long)(ux >> s);
    r[4] = (long long)(ux << s);
    r[5] = (x < y) | (ux < uy) << 1 | (x >= y) << 2;
    r[6] = (long long)(ux * uy);
    r[7] = (long long)(0ull - ux);
    r[8] = (long long)((ux << 13) | (ux >> 51));
    r[9] = (long long)((ux & 0xffffffffull) * (uy >> 32)) + (x ^ ~y);
}
