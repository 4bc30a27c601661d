// volatile shared-memory warp reduction with __syncwarp between steps (ld/st.volatile.shared), one warp per block.
extern "C" __global__ void volatile_warp(const int *in, int *out, int n)
{
    __shared__ int s[64];
    volatile int *vs = s;
    int t = threadIdx.x, i = blockIdx.x * 32 + t;
    vs[t] = i < n ? in[i] : 0;
    vs[t + 32] = 0;
    __syncwarp();
    for (int off = 16; off > 0; off >>= 1) {
        int v = vs[t] + vs[t + off];
        __syncwarp();
        vs[t] = v;
        __syncwarp();
    }
    if (t == 0)
        out[blockIdx.x] = vs[0];
}
