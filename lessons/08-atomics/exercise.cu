// Exercise: bins[v] = number of elements of data[0 .. n-1] equal to v, for v = 0..15.
// Blocks of 256 threads. The starter is correct but performs one global atomic per
// element. Count in shared memory first (privatization), then add each block's
// counts to bins[] once.
extern "C" __global__ void histogram(const int *data, int *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[data[i]], 1);
}
