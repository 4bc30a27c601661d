// n = 20 elements, blocks of 8 threads: 3 blocks = 24 threads, 4 too many.
// The guard keeps threads 20..23 away from memory that is not theirs.
extern "C" __global__ void square(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * in[i];
}
