// Right: splits the whole grid instead of each block: the first half of all threads take the even elements, the second half the odd ones (the half is a multiple of 64 threads, so every warp stays uniform).
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
    int half = gridDim.x * blockDim.x / 2;
    if (g < half) {
        int j = 2 * g;
        if (j < n)
            out[j] = work_a(in[j]);
    } else {
        int j = 2 * (g - half) + 1;
        if (j < n)
            out[j] = work_b(in[j]);
    }
}
