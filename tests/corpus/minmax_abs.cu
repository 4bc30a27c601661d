// min/max/abs on int, unsigned, long long and unsigned long long, __sad/__usad, signed vs unsigned comparisons.
extern "C" __global__ void minmax_abs(const int *a, const int *b, long long *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    long long X = (long long)x * 3000000000LL, Y = (long long)y << 20;
    long long *r = o + i * 12;
    r[0] = min(x, y);
    r[1] = max(x, y);
    r[2] = min((unsigned)x, (unsigned)y);
    r[3] = max((unsigned)x, (unsigned)y);
    r[4] = abs(x);
    r[5] = llabs(X);
    r[6] = min(X, Y);
    r[7] = (long long)max((unsigned long long)X, (unsigned long long)Y);
    r[8] = __sad(x, y, 5u);
    r[9] = __usad((unsigned)x, (unsigned)y, 0u);
    r[10] = (x < y) * 2 + ((unsigned)x < (unsigned)y);
    r[11] = -x;
}
