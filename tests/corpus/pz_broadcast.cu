// Puzzle "broadcast": out[r][c] = a[r] + b[c] (a column vector plus a row vector), guarded.
extern "C" __global__ void pz_broadcast(const int *a, const int *b, int *out, int rows, int cols)
{
    int r = threadIdx.y, c = threadIdx.x;
    if (r < rows && c < cols)
        out[r * cols + c] = a[r] + b[c];
}
