// Right: the row loop walks pointers instead of recomputing indices.
#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x0 = blockIdx.x * TILE + tx, y0 = blockIdx.y * TILE + ty;
    for (int r = ty; r < TILE; r += ROWS) {
        const int y = y0 + (r - ty);
        if (x0 < cols && y < rows)
            tile[r][tx] = in[(size_t)y * cols + x0];
    }
    __syncthreads();
    const int x1 = blockIdx.y * TILE + tx, y1 = blockIdx.x * TILE + ty;
    float *o = out + (size_t)y1 * rows + x1;
    for (int r = ty; r < TILE; r += ROWS, o += (size_t)ROWS * rows) {
        if (x1 < rows && y1 + (r - ty) < cols)
            *o = tile[tx][r];
    }
}
