// shared_sync.cu — threads of one block ordered through shared memory by a release and an
// acquire (PTX ISA §8.8 "Release and acquire patterns"), as libcu++'s cuda::barrier and
// cuda::pipeline are where there is no mbarrier (sm_70-sm_75: atom.add.acq_rel arrivals
// and ld.acquire polls). mode 0: warp 1 fills data and one lane publishes a flag with
// st.release, warp 0 polls it with ld.acquire, then reads data: no race. mode 1: the same
// with .relaxed, which orders nothing: data is raced (the flag's strong accesses are not).
// mode 2: every thread writes its word and arrives with atom.add.acq_rel, then polls the
// count with ld.acquire until all arrived, and reads another warp's word: no race.
extern "C" __global__ void shared_sync(const int *in, int *out, int mode)
{
    __shared__ int data[64];
    __shared__ unsigned flag;
    const int t = threadIdx.x;
    if (t == 0)
        flag = 0;
    __syncthreads();
    unsigned seen = 0;
    if (mode == 2) {
        data[t] = in[t] * 2;
        asm volatile("atom.add.acq_rel.cta.u32 %0, [%1], 1;" : "=r"(seen) : "l"(&flag) : "memory");
        do
            asm volatile("ld.acquire.cta.u32 %0, [%1];" : "=r"(seen) : "l"(&flag) : "memory");
        while (seen < blockDim.x);
        out[t] = data[63 - t];
        return;
    }
    if (t >= 32) {
        data[t - 32] = in[t] * 3;
        __syncwarp();
        if (t == 32 && mode == 0)
            asm volatile("st.release.cta.u32 [%0], %1;" ::"l"(&flag), "r"(1u) : "memory");
        if (t == 32 && mode == 1)
            asm volatile("st.relaxed.cta.u32 [%0], %1;" ::"l"(&flag), "r"(1u) : "memory");
    } else {
        do {
            if (mode == 0)
                asm volatile("ld.acquire.cta.u32 %0, [%1];" : "=r"(seen) : "l"(&flag) : "memory");
            else
                asm volatile("ld.relaxed.cta.u32 %0, [%1];" : "=r"(seen) : "l"(&flag) : "memory");
        } while (seen == 0);
        out[t] = data[t];
    }
}
