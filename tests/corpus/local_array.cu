// A per-thread local array indexed dynamically (local memory): insertion sort of 13 values, then a data-dependent lookup.
extern "C" __global__ void local_array(const int *in, int *sorted, int *pick, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v[13];
    for (int k = 0; k < 13; ++k)
        v[k] = in[(i * 13 + k * 5) % (n * 13)];
    for (int k = 1; k < 13; ++k) {
        int x = v[k], j = k - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            --j;
        }
        v[j + 1] = x;
    }
    for (int k = 0; k < 13; ++k)
        sorted[i * 13 + k] = v[k];
    pick[i] = v[(unsigned)in[i] % 13u];
}
