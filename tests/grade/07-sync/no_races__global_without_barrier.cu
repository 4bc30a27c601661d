// Wrong: reverses directly in global memory with no barrier: a thread may overwrite data[base + t] before the thread that mirrors it has read it.
extern "C" __global__ void reverse_inplace(int *data, int n)
{
    int t = threadIdx.x;
    int base = blockIdx.x * 64;
    int m = min(64, n - base);
    if (t < m) {
        int v = data[base + m - 1 - t];
        data[base + t] = v;
    }
}
