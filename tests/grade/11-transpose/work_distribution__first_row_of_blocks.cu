// Wrong: the reference's padded tile, but only the blocks with blockIdx.y == 0 work,
// each walking its whole column of tiles while the other blocks return: right and
// coalesced, on a fraction of the SMs.
#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    if (blockIdx.y != 0)
        return;
    for (int by = 0; by * TILE < rows; by++) {
        int x = blockIdx.x * TILE + threadIdx.x;
        for (int k = 0; k < TILE; k += ROWS) {
            int y = by * TILE + threadIdx.y + k;
            if (x < cols && y < rows)
                tile[threadIdx.y + k][threadIdx.x] = in[y * cols + x];
        }
        __syncthreads();
        x = by * TILE + threadIdx.x;
        for (int k = 0; k < TILE; k += ROWS) {
            int y = blockIdx.x * TILE + threadIdx.y + k;
            if (x < rows && y < cols)
                out[y * rows + x] = tile[threadIdx.x][threadIdx.y + k];
        }
        __syncthreads(); // the next tile overwrites this one
    }
}
// expect-advice: from blockIdx
