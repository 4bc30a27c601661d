// Puzzle "blocks": fewer threads per block than elements; index from blockIdx and blockDim.
extern "C" __global__ void pz_blocks(const unsigned char *a, unsigned char *out, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size)
        out[i] = (unsigned char)(a[i] + 10);
}
