// A barrier inside divergent code: only the first half of the block reaches it. On
// Volta and later GPUs the barrier waits for non-exited threads only, so this completes
// (recorded on an H200 in bar_divergent.golden.json); CUDA calls it undefined behaviour.
extern "C" __global__ void bar_divergent(int *out)
{
    int t = threadIdx.x;
    if (t < (int)blockDim.x / 2) {
        out[t] = t;
        __syncthreads();
    }
    out[t] += 1;
}
