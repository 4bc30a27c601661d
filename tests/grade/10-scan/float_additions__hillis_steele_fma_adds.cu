// Wrong: Hillis-Steele (about n log2 n additions) with every addition written as a fused
// multiply-add by 1, which adds all the same.
extern "C" __global__ void block_exclusive_scan(const float *in, float *out, int n)
{
    __shared__ float buf[2][256];
    int t = threadIdx.x, i = blockIdx.x * 256 + t, src = 0;
    buf[0][t] = (t > 0 && i - 1 < n) ? in[i - 1] : 0.0f;
    __syncthreads();
    for (int d = 1; d < 256; d *= 2) {
        buf[1 - src][t] = t >= d ? __fmaf_rn(1.0f, buf[src][t - d], buf[src][t]) : buf[src][t];
        src = 1 - src;
        __syncthreads();
    }
    if (i < n)
        out[i] = buf[src][t];
}
// expect-advice: Blelloch
