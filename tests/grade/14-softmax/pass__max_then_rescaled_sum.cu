// Right: one pass for each thread's (m, d); the block then reduces the maxima first,
// rescales each thread's sum to the block's maximum and adds the sums (two reductions,
// one shared array reused behind a barrier).
#define B 128
#define WARPS (B / 32)
#define FULL 0xffffffffu

extern "C" __global__ void softmax_rows(const float *x, float *y, int rows, int cols)
{
    __shared__ float s[WARPS];
    const float *row = x + (size_t)blockIdx.x * cols;
    float m = -INFINITY, d = 0.0f;
    for (int j = threadIdx.x; j < cols; j += B) {
        float mn = fmaxf(m, row[j]);
        d = d * expf(m - mn) + expf(row[j] - mn);
        m = mn;
    }
    float wm = m;
    for (int off = 16; off > 0; off >>= 1)
        wm = fmaxf(wm, __shfl_xor_sync(FULL, wm, off));
    if (threadIdx.x % 32 == 0)
        s[threadIdx.x / 32] = wm;
    __syncthreads();
    float bm = fmaxf(fmaxf(s[0], s[1]), fmaxf(s[2], s[3]));
    __syncthreads(); // every thread has read the maxima
    d = m == -INFINITY ? 0.0f : d * expf(m - bm);
    for (int off = 16; off > 0; off >>= 1)
        d += __shfl_xor_sync(FULL, d, off);
    if (threadIdx.x % 32 == 0)
        s[threadIdx.x / 32] = d;
    __syncthreads();
    d = s[0] + s[1] + s[2] + s[3];
    for (int j = threadIdx.x; j < cols; j += B)
        y[(size_t)blockIdx.x * cols + j] = expf(row[j] - bm) / d;
}
