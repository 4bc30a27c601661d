// Right values, but the stores go down a column of out: 32 sectors per request.
#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose(const float *in, float *out, int rows, int cols)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    for (int k = 0; k < TILE; k += ROWS) {
        int y = blockIdx.y * TILE + threadIdx.y + k;
        if (x < cols && y < rows)
            out[x * rows + y] = in[y * cols + x];
    }
}
