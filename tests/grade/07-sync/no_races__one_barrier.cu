// Wrong: a barrier after filling s, but none between reading the mirror and writing.
extern "C" __global__ void reverse_inplace(int *data, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x, base = blockIdx.x * 64, m = min(64, n - base);
    if (t < m)
        s[t] = data[base + t];
    __syncthreads();
    if (t < m)
        s[t] = s[m - 1 - t];
    __syncthreads();
    if (t < m)
        data[base + t] = s[t];
}
// expect-advice: Line 10 both reads and writes s[0]: read the value into a variable, then __syncthreads()
// expect-no-advice: __syncwarp
