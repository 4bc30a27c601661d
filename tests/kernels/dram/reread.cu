// Kernels for tests/test_dram.c: the DRAM model (trace/dram.h) against kernels whose
// DRAM traffic is known.

// Each of the grid's blocks reads all of table (n floats) and writes one sum: the table
// is read gridDim.x times through the L2 but from DRAM once.
extern "C" __global__ void reread(const float *table, float *out, int n)
{
    float s = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s += table[i];
    s += __shfl_down_sync(0xffffffffu, s, 16);
    s += __shfl_down_sync(0xffffffffu, s, 8);
    s += __shfl_down_sync(0xffffffffu, s, 4);
    s += __shfl_down_sync(0xffffffffu, s, 2);
    s += __shfl_down_sync(0xffffffffu, s, 1);
    if (threadIdx.x % 32 == 0)
        atomicAdd(&out[blockIdx.x], s);
}

// One block reads x (n floats) twice, pass after pass, and writes y = 2 x: the second
// pass finds x in an L2 larger than it, not in a smaller one.
extern "C" __global__ void two_passes(const float *x, float *y, int n)
{
    for (int pass = 0; pass < 2; pass++)
        for (int i = threadIdx.x; i < n; i += blockDim.x)
            y[i] = pass ? y[i] + x[i] : x[i];
}
