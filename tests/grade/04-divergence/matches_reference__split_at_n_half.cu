// Wrong: splits the grid's threads at n / 2 (rounded down) instead of at half the threads, so for odd n the last even element is never written.
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
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int half = n / 2;
    int odd = g >= half;
    int j = odd ? 2 * (g - half) + 1 : 2 * g;
    if (j < n) {
        if (odd)
            out[j] = work_b(in[j]);
        else
            out[j] = work_a(in[j]);
    }
}
