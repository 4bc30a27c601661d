// Wrong: reverses as if every block had 64 elements.
extern "C" __global__ void reverse_inplace(int *data, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x, base = blockIdx.x * 64;
    if (base + t < n)
        s[t] = data[base + t];
    __syncthreads();
    int v = s[63 - t];
    __syncthreads();
    if (base + t < n)
        data[base + t] = v;
}
