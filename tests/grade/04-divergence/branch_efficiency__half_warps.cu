// Wrong: correct output, but the parity changes every 16 threads (half a warp) instead of every 64, so every warp still splits in two.
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
    int t = threadIdx.x;
    int odd = (t / 16) % 2;
    int j = blockIdx.x * blockDim.x + (t / 32) * 32 + 2 * (t % 16) + odd;
    if (j < n) {
        if (odd)
            out[j] = work_b(in[j]);
        else
            out[j] = work_a(in[j]);
    }
}
