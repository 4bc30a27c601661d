// Puzzle "shared": stage a block of input in shared memory, barrier, then write a neighbour-shifted result.
#define TPB 8
extern "C" __global__ void pz_shared(const int *a, int *out, int size)
{
    __shared__ int sh[TPB];
    int i = blockIdx.x * blockDim.x + threadIdx.x, t = threadIdx.x;
    if (i < size)
        sh[t] = a[i];
    __syncthreads();
    if (i < size)
        out[i] = sh[t] + (t + 1 < TPB && i + 1 < size ? sh[t + 1] : 0);
}
