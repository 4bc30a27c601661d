// Named barriers with thread counts (inline PTX bar.sync/bar.arrive): warp 0 produces into shared memory, warp 1 consumes; warps 2-3 use barrier 2 among themselves.
extern "C" __global__ void named_barriers(const int *in, int *out)
{
    __shared__ int buf[2][32];
    int t = threadIdx.x, w = t / 32, lane = t % 32;
    int base = blockIdx.x * blockDim.x;
    if (w == 0) {
        buf[0][lane] = in[base + t] * 3;
        asm volatile("bar.arrive 1, 64;" ::: "memory");
    } else if (w == 1) {
        asm volatile("bar.sync 1, 64;" ::: "memory");
        out[base + t] = buf[0][31 - lane] + in[base + t];
    } else {
        if (w == 2)
            buf[1][lane] = in[base + t];
        asm volatile("bar.sync 2, 64;" ::: "memory");
        if (w == 3)
            out[base + t] = buf[1][lane] - lane;
    }
    __syncthreads();
    if (w == 0 || w == 2)
        out[base + t] = buf[0][lane] + buf[1][(lane + 1) & 31] * (w - 1);
}
