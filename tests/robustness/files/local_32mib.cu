// Grading: 32 MiB of local memory in each of 128 threads a block (4 GiB), over the memory limit.
extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    volatile char big[32 << 20];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    big[i % (32 << 20)] = 1;
    if (i < n) c[i] = a[i] + b[i] + big[(i * 7) % (32 << 20)] - 1;
}
