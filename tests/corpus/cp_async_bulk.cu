// cp.async.bulk (PTX ISA §9.7.9.25.4.1, sm_90) without the TMA unit's tensor maps:
// global to shared with .mbarrier::complete_tx::bytes, then shared to global with
// .bulk_group, commit_group and wait_group.read; fence.proxy.async.shared::cta orders the
// threads' generic-proxy writes before the bulk copy's async-proxy reads. Inline PTX.
__device__ __forceinline__ unsigned smem(const void *p)
{
    unsigned r;
    asm("{ .reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a; }" : "=r"(r) : "l"(p));
    return r;
}

// Each block of 128 threads: two bulk copies of 512 bytes bring 256 ints in, tracked by
// one mbarrier (thread 0 arrives with expect_tx 1024, the others plainly); every thread
// transforms two of them; thread 0 writes the tile back with one bulk copy.
extern "C" __global__ void bulk_roundtrip(const int *in, int *out)
{
    __shared__ __align__(16) int buf[256];
    __shared__ __align__(8) unsigned long long bar;
    const unsigned sbar = smem(&bar), sbuf = smem(buf);
    const int *src = in + blockIdx.x * 256;
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(sbar), "r"(blockDim.x));
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 1024;" ::"r"(sbar)
                     : "memory");
        for (int h = 0; h < 2; h++)
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                         "[%0], [%1], 512, [%2];" ::"r"(sbuf + 512 * h),
                         "l"(src + 128 * h), "r"(sbar)
                         : "memory");
    } else {
        asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(sbar) : "memory");
    }
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;"
                     " selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(sbar)
                     : "memory");
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        buf[i] = buf[i] * 3 + i;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 1024;" ::"l"(
                         out + blockIdx.x * 256),
                     "r"(sbuf)
                     : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
}
