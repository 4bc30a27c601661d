// Puzzle "prefix sum": each block of 8 reduces its chunk by a shared-memory tree; out[block] = chunk sum.
#define TPB 8
extern "C" __global__ void pz_prefix_sum(const int *a, int *out, int size)
{
    __shared__ int sh[TPB];
    int i = blockIdx.x * blockDim.x + threadIdx.x, t = threadIdx.x;
    sh[t] = i < size ? a[i] : 0;
    __syncthreads();
    for (int s = 1; s < TPB; s *= 2) {
        int v = (t % (2 * s) == 0) ? sh[t + s] : 0;
        __syncthreads();
        sh[t] += v;
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = sh[0];
}
