// Puzzle "matmul": square size x size product with 4x4 shared tiles over several blocks, guarded.
#define TPB 4
extern "C" __global__ void pz_matmul(const int *a, const int *b, int *out, int size)
{
    __shared__ int sa[TPB][TPB], sb[TPB][TPB];
    int r = blockIdx.y * TPB + threadIdx.y, c = blockIdx.x * TPB + threadIdx.x;
    int acc = 0;
    for (int k0 = 0; k0 < size; k0 += TPB) {
        sa[threadIdx.y][threadIdx.x] = r < size && k0 + (int)threadIdx.x < size ? a[r * size + k0 + threadIdx.x] : 0;
        sb[threadIdx.y][threadIdx.x] = c < size && k0 + (int)threadIdx.y < size ? b[(k0 + threadIdx.y) * size + c] : 0;
        __syncthreads();
        for (int k = 0; k < TPB; ++k)
            acc += sa[threadIdx.y][k] * sb[k][threadIdx.x];
        __syncthreads();
    }
    if (r < size && c < size)
        out[r * size + c] = acc;
}
