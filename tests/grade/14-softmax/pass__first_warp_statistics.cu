// Right: the first warp alone reads the row for (m, d), 32 columns at a time, with one
// exp per element (rescale the sum only when the maximum grows); it shares the result
// through shared memory and then the whole block writes the outputs.
#define B 128
#define FULL 0xffffffffu

extern "C" __global__ void softmax_rows(const float *x, float *y, int rows, int cols)
{
    __shared__ float stat[2];
    const float *row = x + (size_t)blockIdx.x * cols;
    if (threadIdx.x < 32) {
        float m = -INFINITY, d = 0.0f;
        for (int j = threadIdx.x; j < cols; j += 32) {
            float v = row[j];
            if (v > m) {
                d = d * expf(m - v) + 1.0f;
                m = v;
            } else {
                d += expf(v - m);
            }
        }
        for (int off = 16; off > 0; off >>= 1) {
            float m2 = __shfl_xor_sync(FULL, m, off), d2 = __shfl_xor_sync(FULL, d, off);
            float mn = fmaxf(m, m2);
            if (mn != -INFINITY) {
                d = d * expf(m - mn) + d2 * expf(m2 - mn);
                m = mn;
            }
        }
        if (threadIdx.x == 0) {
            stat[0] = m;
            stat[1] = d;
        }
    }
    __syncthreads();
    float m = stat[0], d = stat[1];
    for (int j = threadIdx.x; j < cols; j += B)
        y[(size_t)blockIdx.x * cols + j] = expf(row[j] - m) / d;
}
