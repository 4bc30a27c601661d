// Exercise: out[j] = 2 * in[j] + 1 for every j < n. Each block of 128 threads
// handles the 512 elements from blockIdx.x * 512, four per thread.
// The starter gives each thread 4 consecutive elements: lanes of a warp are 16 bytes
// apart, and every request touches 16 sectors. Keep 4 elements per thread, but choose
// them so that a warp's 32 lanes touch 32 consecutive floats at each step.
extern "C" __global__ void scale4(const float *in, float *out, int n)
{
    int base = blockIdx.x * 512 + threadIdx.x * 4;
    for (int k = 0; k < 4; k++) {
        int j = base + k;
        if (j < n)
            out[j] = 2.0f * in[j] + 1.0f;
    }
}
