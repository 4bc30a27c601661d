// Wrong: threads past the end return early and the rest synchronise: legal PTX, and Volta
// and later GPUs release the barriers once the others have exited, but __syncthreads()
// after a return that only part of the block takes is conditional code whose condition
// differs within the block, which the CUDA C++ Programming Guide does not allow.
extern "C" __global__ void reverse_inplace(int *data, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    int base = blockIdx.x * 64;
    int m = min(64, n - base);
    if (t >= m)
        return;
    s[t] = data[base + t];
    __syncthreads();
    int v = s[m - 1 - t];
    __syncthreads();
    s[t] = v;
    __syncthreads();
    data[base + t] = s[t];
}
