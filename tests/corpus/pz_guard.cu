// Puzzle "guard": more threads than elements; threads past size must not touch memory.
extern "C" __global__ void pz_guard(const short *a, short *out, int size)
{
    int i = threadIdx.x;
    if (i < size)
        out[i] = (short)(a[i] * 3 + 1);
}
