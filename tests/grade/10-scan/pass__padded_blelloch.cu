// Right: Blelloch's up-sweep and down-sweep on a padded array (one extra slot every 32, index k + k / 32) to avoid bank conflicts; thread 255 clears the root.
#define PAD(k) ((k) + ((k) >> 5))
extern "C" __global__ void block_exclusive_scan(const float *in, float *out, int n)
{
    __shared__ float s[256 + 8];
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    s[PAD(t)] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int d = 1; d < 256; d *= 2) {
        int k = (t + 1) * 2 * d - 1;
        if (k < 256)
            s[PAD(k)] += s[PAD(k - d)];
        __syncthreads();
    }
    if (t == 255)
        s[PAD(255)] = 0.0f;
    __syncthreads();
    for (int d = 128; d >= 1; d /= 2) {
        int k = (t + 1) * 2 * d - 1;
        if (k < 256) {
            float left = s[PAD(k - d)];
            s[PAD(k - d)] = s[PAD(k)];
            s[PAD(k)] += left;
        }
        __syncthreads();
    }
    if (i < n)
        out[i] = s[PAD(t)];
}
