// Two kernels with the same amount of work. In `by_lane` the branch depends on the
// lane's parity, so every warp takes both sides one after the other; in `by_warp` it
// depends on the warp number, so each warp takes one side only.
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

extern "C" __global__ void by_lane(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x % 2 == 0)
        out[i] = work_a(in[i]);
    else
        out[i] = work_b(in[i]);
}

extern "C" __global__ void by_warp(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if ((threadIdx.x / 32) % 2 == 0)
        out[i] = work_a(in[i]);
    else
        out[i] = work_b(in[i]);
}
