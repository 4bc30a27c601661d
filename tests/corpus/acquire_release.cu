// Memory-model instructions through inline PTX: st.release/ld.acquire (gpu scope) message passing between two warps of a block, fence.acq_rel, ld.relaxed, red.release.
extern "C" __global__ void acquire_release(int *data, int *flag, int *out)
{
    int t = threadIdx.x, lane = t & 31, b = blockIdx.x;
    int *d = data + b * 32, *f = flag + b;
    if (t < 32) {
        d[lane] = lane * lane + b;
        __syncwarp();
        if (lane == 0)
            asm volatile("st.release.gpu.global.u32 [%0], %1;" :: "l"(f), "r"(1) : "memory");
    } else {
        int v = 0;
        if (lane == 0) {
            do {
                asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(f) : "memory");
            } while (v == 0);
        }
        __syncwarp();
        asm volatile("fence.acq_rel.gpu;" ::: "memory");
        int x;
        asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(x) : "l"(d + (31 - lane)) : "memory");
        out[b * 32 + lane] = x + __shfl_sync(0xffffffffu, v, 0) * 1000;
        asm volatile("red.release.gpu.global.add.u32 [%0], %1;" :: "l"(f), "r"(1) : "memory");
    }
}
