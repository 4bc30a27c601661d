// 2D indexing with guards: mirror an image left-right and scale by row (rows x cols not multiples of the block).
extern "C" __global__ void idx2d_flip(const int *img, int *out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= rows || col >= cols)
        return;
    out[row * cols + (cols - 1 - col)] = img[row * cols + col] * (row - 5) + col;
}
