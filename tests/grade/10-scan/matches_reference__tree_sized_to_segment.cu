// Wrong: power-of-two-only code, the tree is sized to the block's m = min(256, n - base) elements (k < m, root s[m - 1], down-sweep from d = m / 2), which works only when m is a power of two.
extern "C" __global__ void block_exclusive_scan(const float *in, float *out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    int m = min(256, n - blockIdx.x * 256);
    if (t < m)
        s[t] = in[i];
    __syncthreads();
    for (int d = 1; d < m; d *= 2) {
        int k = (t + 1) * 2 * d - 1;
        if (k < m)
            s[k] += s[k - d];
        __syncthreads();
    }
    if (t == 0)
        s[m - 1] = 0.0f;
    __syncthreads();
    for (int d = m / 2; d >= 1; d /= 2) {
        int k = (t + 1) * 2 * d - 1;
        if (k < m) {
            float left = s[k - d];
            s[k - d] = s[k];
            s[k] += left;
        }
        __syncthreads();
    }
    if (t < m)
        out[i] = s[t];
}
