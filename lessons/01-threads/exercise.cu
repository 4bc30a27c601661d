// Exercise: c[i] = a[i] + b[i] for every i < n.
// The launch uses blocks of 128 threads and (n + 127) / 128 blocks, so when n is not
// a multiple of 128 the last block has threads with no element to work on.
extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i] + b[i];
}
