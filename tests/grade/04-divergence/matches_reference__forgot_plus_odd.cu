// Wrong: the odd half forgets the + 1 (j = base + 2 * (t - half)), so the odd threads compute work_b on even elements and the odd elements are never written.
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
    int odd = t >= half;
    int j = blockIdx.x * blockDim.x + 2 * (odd ? t - half : t);
    if (j < n) {
        if (odd)
            out[j] = work_b(in[j]);
        else
            out[j] = work_a(in[j]);
    }
}
