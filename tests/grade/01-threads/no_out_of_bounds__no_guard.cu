// Wrong: no bounds check at all, so the threads past n in the last block read and write past the arrays.
extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i] + b[i];
}
// expect-advice: when n is not a multiple of the block size the last block has threads whose index is >= n
