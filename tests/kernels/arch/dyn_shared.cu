// n words of dynamic shared memory, each written with its index; out[0] gets the last.
extern "C" __global__ void fill_shared(unsigned *out, int n)
{
    extern __shared__ unsigned buf[];
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        buf[i] = i;
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = buf[n - 1];
}
