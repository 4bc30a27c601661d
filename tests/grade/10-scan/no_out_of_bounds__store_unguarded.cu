// Wrong: every thread stores its result, including those past n (only out[0 .. n-1] may be written).
extern "C" __global__ void block_exclusive_scan(const float *in, float *out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int d = 1; d < 256; d *= 2) {
        int k = (t + 1) * 2 * d - 1;
        if (k < 256)
            s[k] += s[k - d];
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
            s[k] += left;
        }
        __syncthreads();
    }
    out[i] = s[t];
}
