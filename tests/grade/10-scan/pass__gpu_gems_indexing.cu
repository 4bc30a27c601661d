// Right: the GPU Gems 3 (ch. 39) indexing, thread t < d works on ai = offset * (2t + 1) - 1 and bi = offset * (2t + 2) - 1, with the barrier at the top of each step.
extern "C" __global__ void block_exclusive_scan(const float *in, float *out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    s[t] = i < n ? in[i] : 0.0f;
    int offset = 1;
    for (int d = 128; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            s[bi] += s[ai];
        }
        offset *= 2;
    }
    if (t == 0)
        s[255] = 0.0f;
    for (int d = 1; d < 256; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (t < d) {
            int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            float a = s[ai];
            s[ai] = s[bi];
            s[bi] += a;
        }
    }
    __syncthreads();
    if (i < n)
        out[i] = s[t];
}
