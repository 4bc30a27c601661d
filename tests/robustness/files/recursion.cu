// Grading: recursion deeper than the simulator's call stack.
__device__ __noinline__ int depth(int n)
{
    volatile int a[2];
    a[0] = n;
    if (n <= 0)
        return 0;
    int r = depth(n - 1);
    return r + a[0] - n + 1;
}
extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i] + (float)(depth(i % 64 + 40) - i % 64 - 40);
}
