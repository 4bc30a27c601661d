// cp.async.bulk's destination read before its mbarrier phase completed (Needs sm_90).
extern "C" __global__ void cp_async_bulk_early(const int *in, int *out, int early)
{
    __shared__ __align__(16) int buf[64];
    __shared__ __align__(8) unsigned long long bar;
    const unsigned sbar = (unsigned)__cvta_generic_to_shared(&bar);
    const unsigned sbuf = (unsigned)__cvta_generic_to_shared(buf);
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(sbar), "r"(blockDim.x));
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 256;" ::"r"(sbar)
                     : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                     "[%0], [%1], 256, [%2];" ::"r"(sbuf),
                     "l"(in), "r"(sbar)
                     : "memory");
    }
    int v = 0;
    if (early && threadIdx.x == 5)
        v = ((volatile int *)buf)[5]; // before the phase completes: a race
    if (threadIdx.x != 0)
        asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(sbar) : "memory");
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;"
                     " selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(sbar)
                     : "memory");
    out[threadIdx.x] = buf[threadIdx.x] + v;
}
