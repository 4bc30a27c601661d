// Right: Blelloch's up-sweep and down-sweep, each addition written as fmaf(1, a, b)
// (2n additions all the same).
extern "C" __global__ void block_exclusive_scan(const float *in, float *out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int d = 1; d < 256; d *= 2) {
        int k = (t + 1) * 2 * d - 1;
        if (k < 256)
            s[k] = __fmaf_rn(1.0f, s[k - d], s[k]);
        __syncthreads();
    }
    if (t == 0)
        s[255] = 0.0f;
    __syncthreads();
    for (int d = 128; d >= 1; d /= 2) {
        int k = (t + 1) * 2 * d - 1;
        if (k < 256) {
            float left = s[k - d];
            s[k - d] = s[k];
            s[k] = __fmaf_rn(1.0f, left, s[k]);
        }
        __syncthreads();
    }
    if (i < n)
        out[i] = s[t];
}
