// Puzzle "map": out[i] = a[i] + 10, one thread per element, exactly as many threads as elements.
extern "C" __global__ void pz_map(const int *a, int *out)
{
    int i = threadIdx.x;
    out[i] = a[i] + 10;
}
