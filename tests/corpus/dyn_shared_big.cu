// Dynamic shared memory past the 48 KiB default (the launch opts in through
// cudaFuncAttributeMaxDynamicSharedMemorySize; CUDA C++ Programming Guide, "Shared
// Memory" for compute capability 8.x/9.x): the block fills it, then sums strided slices.
extern "C" __global__ void dyn_shared_big(const int *in, int *out, int words)
{
    extern __shared__ int big[];
    int t = threadIdx.x;
    for (int k = t; k < words; k += blockDim.x)
        big[k] = in[k % 1024] + k;
    __syncthreads();
    long long s = 0;
    for (int k = (t * 97) % words; k < words; k += blockDim.x * 3)
        s += big[words - 1 - k];
    out[blockIdx.x * blockDim.x + t] = (int)s ^ big[(t * 4099) % words];
}
