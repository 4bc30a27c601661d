// Row softmax as lesson 14 teaches it (the safe form: each row's max subtracted, expf,
// the sum, a divide), one block of 256 threads per row of 1000 floats, the reductions
// in shared memory in a fixed order. expf is libdevice's (ex2.approx.ftz.f32 and FMAs):
// the simulator gives the GPU's bits, so every output must equal the GPU's exactly (a
// third of them differed by an ulp while ex2.approx was only correctly rounded).
#define B 256

__device__ float block_reduce(float v, float *s, bool is_max)
{
    s[threadIdx.x] = v;
    __syncthreads();
    for (int h = B / 2; h > 0; h >>= 1) {
        if (threadIdx.x < h)
            s[threadIdx.x] = is_max ? fmaxf(s[threadIdx.x], s[threadIdx.x + h])
                                    : s[threadIdx.x] + s[threadIdx.x + h];
        __syncthreads();
    }
    float r = s[0];
    __syncthreads();
    return r;
}

extern "C" __global__ void softmax_rows(const float *x, float *y, int n)
{
    __shared__ float s[B];
    const float *row = x + (size_t)blockIdx.x * n;
    float *out = y + (size_t)blockIdx.x * n;
    float m = -INFINITY;
    for (int j = threadIdx.x; j < n; j += B)
        m = fmaxf(m, row[j]);
    m = block_reduce(m, s, true);
    float l = 0.0f;
    for (int j = threadIdx.x; j < n; j += B)
        l += expf(row[j] - m);
    l = block_reduce(l, s, false);
    for (int j = threadIdx.x; j < n; j += B)
        out[j] = expf(row[j] - m) / l;
}
