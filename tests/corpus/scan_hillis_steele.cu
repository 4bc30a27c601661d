// Hillis-Steele inclusive scan of one block, double-buffered in shared memory (n < blockDim).
extern "C" __global__ void scan_hillis_steele(const int *in, int *out, int n)
{
    __shared__ int buf[2][256];
    int t = threadIdx.x, cur = 0;
    buf[0][t] = t < n ? in[t] : 0;
    __syncthreads();
    for (int off = 1; off < (int)blockDim.x; off *= 2) {
        int v = buf[cur][t];
        if (t >= off)
            v += buf[cur][t - off];
        buf[1 - cur][t] = v;
        cur = 1 - cur;
        __syncthreads();
    }
    if (t < n)
        out[t] = buf[cur][t];
}
