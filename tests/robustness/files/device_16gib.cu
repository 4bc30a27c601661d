// Grading: a 16 GiB __device__ array touched page by page, over the memory limit.
__device__ char big[16ull << 30];
extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (unsigned long long p = (unsigned long long)i * 4096; p < (16ull << 30); p += 4096ull * gridDim.x * blockDim.x)
        big[p] = 1;
    if (i < n) c[i] = a[i] + b[i];
}
