// Reduction 6 (grid-stride): each thread sums a strided slice, warp shuffle reduction, one atomicAdd per warp.
extern "C" __global__ void reduce_grid_stride(const int *in, unsigned long long *out, int n)
{
    long long s = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        s += in[i];
    for (int off = 16; off > 0; off /= 2)
        s += __shfl_xor_sync(0xffffffffu, s, off);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(out, (unsigned long long)s);
}
