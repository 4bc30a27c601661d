// scan.cu — bench kernel: inclusive block scan (Hillis-Steele, double-buffered in
// shared memory), each block scans its own 1024 elements. Launch with 1024 threads
// per block.
#define BLOCK 1024
extern "C" __global__ void scan(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned buf[2][BLOCK];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * BLOCK + t;
    int src = 0;
    buf[0][t] = i < (unsigned)n ? in[i] : 0;
    __syncthreads();
    for (unsigned off = 1; off < BLOCK; off <<= 1) {
        unsigned v = buf[src][t];
        if (t >= off)
            v += buf[src][t - off];
        buf[1 - src][t] = v;
        src = 1 - src;
        __syncthreads();
    }
    if (i < (unsigned)n)
        out[i] = buf[src][t];
}
