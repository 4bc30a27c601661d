// Right: no shared memory; each thread reads its mirror element from global memory into a register, and one barrier separates all reads from all writes.
extern "C" __global__ void reverse_inplace(int *data, int n)
{
    int t = threadIdx.x;
    int base = blockIdx.x * 64;
    int m = min(64, n - base);
    int v = 0;
    if (t < m)
        v = data[base + m - 1 - t];
    __syncthreads();
    if (t < m)
        data[base + t] = v;
}
