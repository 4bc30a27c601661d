// Each thread of a 2D grid finds its column x and row y, and writes them into the
// matrix element it owns (row-major: element (x, y) is at y * w + x).
extern "C" __global__ void index2d(int *col, int *row, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        col[y * w + x] = x;
        row[y * w + x] = y;
    }
}
