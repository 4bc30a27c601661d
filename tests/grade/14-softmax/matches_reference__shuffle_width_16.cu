// Wrong: the shuffles start at offset 8, so each warp merges only 16 lanes: lane 0's
// pair leaves out lanes 16..31.
#define B 128
#define WARPS (B / 32)
#define FULL 0xffffffffu

__device__ void md_merge(float &m, float &d, float m2, float d2)
{
    float mn = fmaxf(m, m2);
    if (mn == -INFINITY)
        return;
    d = d * expf(m - mn) + d2 * expf(m2 - mn);
    m = mn;
}

extern "C" __global__ void softmax_rows(const float *x, float *y, int rows, int cols)
{
    __shared__ float sm[WARPS], sd[WARPS];
    const float *row = x + (size_t)blockIdx.x * cols;
    float m = -INFINITY, d = 0.0f;
    for (int j = threadIdx.x; j < cols; j += B)
        md_merge(m, d, row[j], 1.0f);
    for (int off = 8; off > 0; off >>= 1)

        md_merge(m, d, __shfl_xor_sync(FULL, m, off), __shfl_xor_sync(FULL, d, off));
    if (threadIdx.x % 32 == 0) {
        sm[threadIdx.x / 32] = m;
        sd[threadIdx.x / 32] = d;
    }
    __syncthreads();
    m = sm[0];
    d = sd[0];
    for (int w = 1; w < WARPS; w++)
        md_merge(m, d, sm[w], sd[w]);
    for (int j = threadIdx.x; j < cols; j += B)
        y[(size_t)blockIdx.x * cols + j] = expf(row[j] - m) / d;
}
