// Wrong: uninitialised accumulator, each of threads 0..15 counts its bin over the block's elements into int c without setting c = 0.
extern "C" __global__ void histogram(const int *data, int *bins, int n)
{
    if (threadIdx.x >= 16)
        return;
    int base = blockIdx.x * 256;
    int c;
    for (int k = 0; k < 256 && base + k < n; k++)
        if (data[base + k] == threadIdx.x)
            c++;
    atomicAdd(&bins[threadIdx.x], c);
}
