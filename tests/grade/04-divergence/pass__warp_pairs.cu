// Right: pairs of warps share 64 elements: even warps take the pair's even elements and odd warps its odd ones.
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
    int w = threadIdx.x / 32, lane = threadIdx.x % 32;
    int odd = w % 2;
    int j = blockIdx.x * blockDim.x + (w / 2) * 64 + 2 * lane + odd;
    if (j >= n)
        return;
    if (odd)
        out[j] = work_b(in[j]);
    else
        out[j] = work_a(in[j]);
}
