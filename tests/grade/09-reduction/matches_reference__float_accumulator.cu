// Wrong: converts each input to float and sums with float shuffles. A float holds every
// integer up to 2^24 exactly, and 256 inputs in [-1000, 1000] never sum past 256000;
// inputs up to 2^23 in magnitude do, and the rounded sums are off by a few units.
#define FULL 0xffffffffu

extern "C" __global__ void block_sum(const int *in, int *partial, int n)
{
    __shared__ float warp_sums[8];
    const int t = threadIdx.x, i = blockIdx.x * 256 + t;
    float v = i < n ? (float)in[i] : 0.0f;
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(FULL, v, off);
    if (t % 32 == 0)
        warp_sums[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        float w = t < 8 ? warp_sums[t] : 0.0f;
        for (int off = 4; off > 0; off >>= 1)
            w += __shfl_down_sync(FULL, w, off);
        if (t == 0)
            partial[blockIdx.x] = (int)w;
    }
}
