// Wrong: takes odd = warp % 2 but keeps the half-block element formula, so warps 1 and 2 pick the wrong elements.
__device__ float work_a(float x)
{
    for (int k = 0; k < 16; k++)
        x = x * 0.5f + 1.0f;
    return x;
}

__device__ float work_b(float x)
{
    for (int k = 0; k < 16; k++)
        x = x * x * 0.25f - 1.0f;
    return x;
}

extern "C" __global__ void parity(const float *in, float *out, int n)
{
    int half = blockDim.x / 2;
    int t = threadIdx.x;
    int odd = (t / 32) % 2;
    int j = blockIdx.x * blockDim.x + 2 * (t >= half ? t - half : t) + odd;
    if (j < n) {
        if (odd)
            out[j] = work_b(in[j]);
        else
            out[j] = work_a(in[j]);
    }
}
