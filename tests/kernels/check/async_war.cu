// async_war.cu — a cp.async write racing with plain reads of another warp earlier in the
// same barrier interval (tests/race_edges.sh). Launch with 64 threads.

// The shared-window address of a pointer to shared memory (cvta.to.shared).
__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    unsigned r;
    asm("{ .reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a; }" : "=r"(r) : "l"(p));
    return r;
}

// mode 0: warp 1 overwrites s[32..63] with cp.async after warp 0 read them, no barrier
// between (a write-after-read race however early or late the copy lands);
// mode 1: a __syncthreads() between the reads and the copies (no race).
extern "C" __global__ void async_war(const int *in, int *out, int mode)
{
    __shared__ int s[64];
    const int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    const int v = s[(t + 32) % 64]; // warp 0 reads s[32..63], warp 1 s[0..31]
    if (mode == 1)
        __syncthreads();
    if (t >= 32) {
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem_addr(&s[t])),
                     "l"(&in[t])
                     : "memory");
        asm volatile("cp.async.wait_all;" ::: "memory");
    }
    __syncthreads();
    out[t] = v + s[t];
}
