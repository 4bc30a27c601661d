// Predicate logic and selects: && / || / ! / ^ on comparisons (setp with and/or/xor, selp), branch-free max chains, unsigned wrap compares.
extern "C" __global__ void select_pred(const int *a, const int *b, const float *f, int *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    float g = f[i];
    bool p = x > y, q = (unsigned)x <= (unsigned)y, r = g != g || g >= 0.5f, s = !(g < -0.5f);
    o[i * 5 + 0] = (p && q) ? x : y;
    o[i * 5 + 1] = (p || r) ? x - y : y - x;
    o[i * 5 + 2] = (p ^ s) + 2 * (q != r) + 4 * !p;
    o[i * 5 + 3] = x > y ? (x > 0 ? x : 0) : (y > 0 ? y : 0);
    o[i * 5 + 4] = (g > 0.0f) - (g < 0.0f) + 10 * (x == y);
}
