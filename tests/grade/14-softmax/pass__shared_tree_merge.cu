// Right: each thread's (m, d) pair goes to shared memory and the block merges the pairs in
// a tree with sequential addressing (lesson 9, step 3) instead of warp shuffles.
#define B 128

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
    __shared__ float sm[B], sd[B];
    int t = threadIdx.x;
    const float *row = x + (size_t)blockIdx.x * cols;
    float m = -INFINITY, d = 0.0f;
    for (int j = t; j < cols; j += B)
        md_merge(m, d, row[j], 1.0f);
    sm[t] = m;
    sd[t] = d;
    __syncthreads();
    for (int st = B / 2; st > 0; st >>= 1) {
        if (t < st) {
            float mm = sm[t], dd = sd[t];
            md_merge(mm, dd, sm[t + st], sd[t + st]);
            sm[t] = mm;
            sd[t] = dd;
        }
        __syncthreads();
    }
    m = sm[0];
    d = sd[0];
    for (int j = t; j < cols; j += B)
        y[(size_t)blockIdx.x * cols + j] = expf(row[j] - m) / d;
}
