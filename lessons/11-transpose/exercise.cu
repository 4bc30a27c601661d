// Exercise: out = the transpose of in, a rows x cols matrix of floats (row-major):
// out[x * rows + y] = in[y * cols + x]. Blocks are 32 x 8 threads; block (bx, by)
// handles the 32 x 32 tile whose top-left element is in[by * 32][bx * 32].
// The starter is right, but its stores go down a column of out: 32 sectors per request.
// Stage the tile in shared memory so that both the loads and the stores are coalesced,
// and lay the tile out so that reading it by columns causes no bank conflicts.
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
