// Wrong for this exercise: the safe softmax of step 2, right but with three passes over x
// (maximum, sum, outputs): 3 global loads per output where one pass for (m, d) needs 2.
#define B 128
#define WARPS (B / 32)
#define FULL 0xffffffffu

extern "C" __global__ void softmax_rows(const float *x, float *y, int rows, int cols)
{
    __shared__ float s[WARPS];
    const float *row = x + (size_t)blockIdx.x * cols;
    float m = -INFINITY;
    for (int j = threadIdx.x; j < cols; j += B)
        m = fmaxf(m, row[j]);
    for (int off = 16; off > 0; off >>= 1)
        m = fmaxf(m, __shfl_xor_sync(FULL, m, off));
    if (threadIdx.x % 32 == 0)
        s[threadIdx.x / 32] = m;
    __syncthreads();
    m = fmaxf(fmaxf(s[0], s[1]), fmaxf(s[2], s[3]));
    __syncthreads();
    float d = 0.0f;
    for (int j = threadIdx.x; j < cols; j += B)
        d += expf(row[j] - m);
    for (int off = 16; off > 0; off >>= 1)
        d += __shfl_xor_sync(FULL, d, off);
    if (threadIdx.x % 32 == 0)
        s[threadIdx.x / 32] = d;
    __syncthreads();
    d = s[0] + s[1] + s[2] + s[3];
    for (int j = threadIdx.x; j < cols; j += B)
        y[(size_t)blockIdx.x * cols + j] = expf(row[j] - m) / d;
}
// expect-advice: a row that several passes read
