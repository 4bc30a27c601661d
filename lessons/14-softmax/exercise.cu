// Exercise: y = softmax of each row of x, a rows x cols matrix (row-major):
// y[r][j] = exp(x[r][j]) / sum_k exp(x[r][k]). One block of B = 128 threads per row.
// The starter is the naive softmax: exp(x) overflows to inf for x > 88.7, and the row
// becomes NaN. Make it safe (subtract the row's maximum m) and keep it to one pass over
// x for the statistics: each thread keeps a running maximum m and a sum d of exp(x - m),
// and the reductions merge (m, d) pairs. Then one more pass writes exp(x - m) / d.
#define B 128
#define WARPS (B / 32)
#define FULL 0xffffffffu

extern "C" __global__ void softmax_rows(const float *x, float *y, int rows, int cols)
{
    __shared__ float s[WARPS];
    const float *row = x + (size_t)blockIdx.x * cols;
    float d = 0.0f;
    for (int j = threadIdx.x; j < cols; j += B)
        d += expf(row[j]);
    for (int off = 16; off > 0; off >>= 1)
        d += __shfl_xor_sync(FULL, d, off);
    if (threadIdx.x % 32 == 0)
        s[threadIdx.x / 32] = d;
    __syncthreads();
    d = 0.0f;
    for (int w = 0; w < WARPS; w++)
        d += s[w];
    for (int j = threadIdx.x; j < cols; j += B)
        y[(size_t)blockIdx.x * cols + j] = expf(row[j]) / d;
}
