// Wrong: the barriers are inside if (t < m): threads of a partial block skip them.
extern "C" __global__ void reverse_inplace(int *data, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x, base = blockIdx.x * 64, m = min(64, n - base);
    if (t < m) {
        s[t] = data[base + t];
        __syncthreads();
        int v = s[m - 1 - t];
        __syncthreads();
        data[base + t] = v;
    } else {
        __syncthreads();
        __syncthreads();
    }
}
