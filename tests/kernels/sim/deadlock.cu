// A barrier inside divergent code: only the first half of the block reaches it.
extern "C" __global__ void bar_divergent(int *out)
{
    int t = threadIdx.x;
    if (t < (int)blockDim.x / 2) {
        out[t] = t;
        __syncthreads();
    }
    out[t] += 1;
}
