// Blelloch work-efficient exclusive scan (up-sweep, clear, down-sweep), 2 elements per thread, one block per segment.
extern "C" __global__ void scan_blelloch(const float *in, float *out, int n)
{
    __shared__ float t[256];
    int tid = threadIdx.x, base = blockIdx.x * 256;
    int a = 2 * tid, b = 2 * tid + 1;
    t[a] = base + a < n ? in[base + a] : 0.0f;
    t[b] = base + b < n ? in[base + b] : 0.0f;
    int off = 1;
    for (int d = 128; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d)
            t[off * (2 * tid + 2) - 1] += t[off * (2 * tid + 1) - 1];
        off *= 2;
    }
    if (tid == 0)
        t[255] = 0.0f;
    for (int d = 1; d < 256; d *= 2) {
        off >>= 1;
        __syncthreads();
        if (tid < d) {
            int ai = off * (2 * tid + 1) - 1, bi = off * (2 * tid + 2) - 1;
            float x = t[ai];
            t[ai] = t[bi];
            t[bi] += x;
        }
    }
    __syncthreads();
    if (base + a < n) out[base + a] = t[a];
    if (base + b < n) out[base + b] = t[b];
}
