// The store keeps blockIdx.x for columns: tiles land in the wrong place.
#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    for (int k = 0; k < TILE; k += ROWS) {
        int y = blockIdx.y * TILE + threadIdx.y + k;
        if (x < cols && y < rows)
            tile[threadIdx.y + k][threadIdx.x] = in[y * cols + x];
    }
    __syncthreads();
    x = blockIdx.x * TILE + threadIdx.x;
    for (int k = 0; k < TILE; k += ROWS) {
        int y = blockIdx.y * TILE + threadIdx.y + k;
        if (x < rows && y < cols)
            out[y * rows + x] = tile[threadIdx.x][threadIdx.y + k];
    }
}
