// A producer warp and four consumer warps share a ring of two slots in shared memory,
// synchronised by mbarriers (PTX ISA §9.7.13.15) instead of __syncthreads(): column sums
// of a tiles x W matrix, W = 128 gridDim.x; block b sums columns 128 b .. 128 b + 127.

// The shared-window address of a pointer to shared memory (cvta.to.shared).
__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    unsigned r;
    asm("{ .reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a; }" : "=r"(r) : "l"(p));
    return r;
}

// mbarrier.init: the barrier expects `count` arrivals per phase (§9.7.13.15.9).
__device__ __forceinline__ void mbar_init(unsigned long long *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count));
}

// mbarrier.arrive: one arrival on the current phase (§9.7.13.15.11).
__device__ __forceinline__ void mbar_arrive(unsigned long long *bar)
{
    asm volatile("mbarrier.arrive.shared.b64 _, [%0];" ::"r"(smem_addr(bar)) : "memory");
}

// Spins until the phase with parity `parity` has completed (mbarrier.test_wait.parity,
// §9.7.13.15.16; sm_90 also has the potentially blocking try_wait).
__device__ __forceinline__ void mbar_wait(unsigned long long *bar, unsigned parity)
{
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], %2;"
                     " selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(smem_addr(bar)), "r"(parity)
                     : "memory");
}

// cp.async.cg of 16 bytes, then cp.async.mbarrier.arrive.noinc (§9.7.9.25.3.4): the
// barrier counts this thread's arrival once its copies have landed.
__device__ __forceinline__ void copy16_then_arrive(float4 *dst, const float4 *src,
                                                   unsigned long long *bar)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_addr(dst)), "l"(src)
                 : "memory");
    asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(smem_addr(bar))
                 : "memory");
}

extern "C" __global__ void column_sums(const float4 *in, float *out, int tiles)
{
    __shared__ float4 slot[2][32];                   // two tiles of 128 floats
    __shared__ unsigned long long full[2], empty[2]; // one pair of mbarriers per slot
    int t = threadIdx.x, warp = t / 32, lane = t % 32;
    int W4 = gridDim.x * 32; // float4s per matrix row
    if (t == 0)
        for (int s = 0; s < 2; s++) {
            mbar_init(&full[s], 32);   // the producer warp's 32 copies
            mbar_init(&empty[s], 128); // the 128 consumers have read the slot
        }
    __syncthreads();
    float acc = 0.0f;
    for (int i = 0; i < tiles; i++) {
        int s = i & 1;
        unsigned parity = (i >> 1) & 1; // the slot's phase: its use number i / 2, mod 2
        if (warp == 0) {                // producer
            if (i >= 2)
                mbar_wait(&empty[s], parity ^ 1); // consumers are done with tile i - 2
            copy16_then_arrive(&slot[s][lane], &in[i * W4 + blockIdx.x * 32 + lane], &full[s]);
        } else { // consumers: thread c = t - 32 owns column c of the tile
            mbar_wait(&full[s], parity);
            acc += ((const float *)slot[s])[t - 32];
            mbar_arrive(&empty[s]);
        }
    }
    if (warp > 0)
        out[blockIdx.x * 128 + t - 32] = acc;
}
