// Right: the reference's mapping written with bit operations (odd = t >> 6, j = base + ((t & 63) << 1 | odd)) and a ternary for the work.
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
    unsigned t = threadIdx.x;
    unsigned odd = t >> 6;
    int j = blockIdx.x * 128 + (((t & 63) << 1) | odd);
    if (j < n) {
        float x = in[j];
        out[j] = odd ? work_b(x) : work_a(x);
    }
}
