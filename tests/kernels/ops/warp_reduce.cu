// Warp sum by __shfl_down_sync: each warp writes the sum of its 32 inputs.
extern "C" __global__ void warp_reduce(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if ((threadIdx.x & 31) == 0)
        out[i / 32] = v;
}
