// Exercise: reverse each block's segment of data[] in place. Block b owns elements
// b * 64 .. b * 64 + m - 1, where m = min(64, n - b * 64); element k of the segment
// must end up at position m - 1 - k. Blocks of 64 threads (2 warps).
// The starter forgets that threads of other warps read what it overwrites.
extern "C" __global__ void reverse_inplace(int *data, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    int base = blockIdx.x * 64;
    int m = min(64, n - base);
    if (t < m)
        s[t] = data[base + t];
    if (t < m) {
        int v = s[m - 1 - t];
        s[t] = v;
    }
    if (t < m)
        data[base + t] = s[t];
}
