// Exercise: out[j] = work_a(in[j]) for even j and work_b(in[j]) for odd j, j < n.
// Blocks of 128 threads; each block handles the 128 elements from blockIdx.x * 128.
// The starter is correct but splits every warp in two: make the branch warp-uniform
// (the same for all 32 lanes of a warp) while keeping the output identical.
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
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        if (j % 2 == 0)
            out[j] = work_a(in[j]);
        else
            out[j] = work_b(in[j]);
    }
}
