// Whole warps' unit-stride accesses (tests/test_sim_check.c): the simulator checks such a
// warp's 32 words at once, and must still name the first lane at fault. Line numbers are
// asserted.
extern "C" __global__ void copy_plus_one(const int *in, int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = in[t] + 1;
}

// The same words two bytes past their alignment.
extern "C" __global__ void copy_misaligned(const int *in, int *out)
{
    int t = threadIdx.x;
    const int *p = (const int *)((const char *)in + 2);
    out[t] = p[t];
}

// A shared array of 48 words written and read back by whole warps: warp 1's words from
// 48 are past its end.
extern "C" __global__ void shared_rows(const int *in, int *out)
{
    __shared__ int s[48];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    out[t] = s[t] * 2;
}
