// reduce.cu — bench kernel: shared-memory tree reduction, one partial sum per block
// (the sum of a block's elements). Launch with 256 threads per block.
#define BLOCK 256
extern "C" __global__ void reduce(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned s[BLOCK];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * BLOCK + t;
    s[t] = i < (unsigned)n ? in[i] : 0;
    __syncthreads();
    for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
