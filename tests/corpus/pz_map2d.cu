// Puzzle "map 2D": a 2D block larger than the size x size matrix, guarded on both axes.
extern "C" __global__ void pz_map2d(const int *a, int *out, int size)
{
    int r = threadIdx.y, c = threadIdx.x;
    if (r < size && c < size)
        out[r * size + c] = a[r * size + c] + 10 * r - c;
}
