// Wrong: correct and race-free (the starter with a barrier between each step's reads and writes), but still Hillis-Steele: about n log2 n additions.
extern "C" __global__ void block_exclusive_scan(const float *in, float *out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    s[t] = (t > 0 && i - 1 < n) ? in[i - 1] : 0.0f;
    __syncthreads();
    for (int d = 1; d < 256; d *= 2) {
        float x = t >= d ? s[t - d] : 0.0f;
        __syncthreads();
        if (t >= d)
            s[t] += x;
        __syncthreads();
    }
    if (i < n)
        out[i] = s[t];
}
