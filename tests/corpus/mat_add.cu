// 2D matrix add with row/column guards: C = A + B, row-major rows x cols ints.
extern "C" __global__ void mat_add(const int *A, const int *B, int *C, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        int idx = row * cols + col;
        C[idx] = A[idx] + B[idx] * (row + 1);
    }
}
