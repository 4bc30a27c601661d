// Exercise: an exclusive scan of each block's 256 elements: out[base + t] = sum of
// in[base .. base + t - 1] (0 for t = 0), elements >= n counting as 0 and only
// out[0 .. n-1] written. Blocks of 256 threads.
// The starter is a Hillis-Steele scan done in place: a thread may read s[t - d] after
// its owner has already added to it in the same step.
extern "C" __global__ void block_exclusive_scan(const float *in, float *out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    s[t] = (t > 0 && i - 1 < n) ? in[i - 1] : 0.0f;
    __syncthreads();
    for (int d = 1; d < 256; d *= 2) {
        if (t >= d)
            s[t] += s[t - d];
        __syncthreads();
    }
    if (i < n)
        out[i] = s[t];
}
