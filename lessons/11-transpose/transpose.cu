// Transposing a rows x cols matrix of floats: out[x][y] = in[y][x] (both row-major).
// Blocks of 32 x 8 threads each move a 32 x 32 tile, every thread four elements, as in
// M. Harris, "An Efficient Matrix Transpose in CUDA C/C++" (NVIDIA Technical Blog).
#define TILE 32
#define ROWS 8

// 1. Naive: each warp reads 32 consecutive floats of a row of in (coalesced), and writes
// them down a column of out, rows floats apart: every store touches 32 sectors.
extern "C" __global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    for (int k = 0; k < TILE; k += ROWS) {
        int y = blockIdx.y * TILE + threadIdx.y + k;
        if (x < cols && y < rows)
            out[x * rows + y] = in[y * cols + x];
    }
}

// 2. Through a shared-memory tile: a warp reads a row of the tile from in and, after
// the barrier, writes a row of out from a column of the tile. Both global accesses are
// coalesced, but the column read hits one bank 32 times (tile[0][c], tile[1][c], ...
// are 32 words apart).
extern "C" __global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    for (int k = 0; k < TILE; k += ROWS) {
        int y = blockIdx.y * TILE + threadIdx.y + k;
        if (x < cols && y < rows)
            tile[threadIdx.y + k][threadIdx.x] = in[y * cols + x];
    }
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x; // the output's column is the input's row
    for (int k = 0; k < TILE; k += ROWS) {
        int y = blockIdx.x * TILE + threadIdx.y + k;
        if (x < rows && y < cols)
            out[y * rows + x] = tile[threadIdx.x][threadIdx.y + k];
    }
}

// 3. The same with a padded tile: each row one float longer, so tile[i][c] is in bank
// (33 i + c) % 32 and a column's 32 words fall in 32 different banks.
extern "C" __global__ void transpose_padded(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    for (int k = 0; k < TILE; k += ROWS) {
        int y = blockIdx.y * TILE + threadIdx.y + k;
        if (x < cols && y < rows)
            tile[threadIdx.y + k][threadIdx.x] = in[y * cols + x];
    }
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    for (int k = 0; k < TILE; k += ROWS) {
        int y = blockIdx.x * TILE + threadIdx.y + k;
        if (x < rows && y < cols)
            out[y * rows + x] = tile[threadIdx.x][threadIdx.y + k];
    }
}
