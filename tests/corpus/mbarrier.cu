// mbarrier (PTX ISA §9.7.13.15): init, arrive, arrive_drop, test_wait with a state or a
// phase parity, pending_count, and (sm_90) try_wait and expect_tx. Inline PTX.
// the shared-window address of a generic pointer to shared memory (cvta.to.shared)
__device__ __forceinline__ unsigned smem(const void *p)
{
    unsigned r;
    asm("{ .reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a; }" : "=r"(r) : "l"(p));
    return r;
}
__device__ __forceinline__ void mbar_init(unsigned long long *b, unsigned count)
{
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(smem(b)), "r"(count));
}
__device__ __forceinline__ unsigned long long mbar_arrive(unsigned long long *b)
{
    unsigned long long s;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(s) : "r"(smem(b)) : "memory");
    return s;
}
__device__ __forceinline__ void mbar_wait(unsigned long long *b, unsigned long long s)
{
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2;"
                     " selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(smem(b)), "l"(s)
                     : "memory");
}
__device__ __forceinline__ void mbar_wait_parity(unsigned long long *b, unsigned parity)
{
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], %2;"
                     " selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(smem(b)), "r"(parity)
                     : "memory");
}

// One phase: each thread writes its slot, arrives, waits on the state, reads a neighbour.
extern "C" __global__ void mbar_basic(const int *in, int *out)
{
    __shared__ int v[256];
    __shared__ unsigned long long bar;
    int t = threadIdx.x;
    if (t == 0)
        mbar_init(&bar, blockDim.x);
    __syncthreads();
    v[t] = in[blockIdx.x * blockDim.x + t] * 2;
    mbar_wait(&bar, mbar_arrive(&bar));
    out[blockIdx.x * blockDim.x + t] = v[(t + 33) % blockDim.x] - v[t];
}

// Four phases of one barrier, waited on by phase parity: a running prefix over rounds.
extern "C" __global__ void mbar_phases(const int *in, int *out)
{
    __shared__ int v[2][128];
    __shared__ unsigned long long bar;
    int t = threadIdx.x, acc = in[t];
    if (t == 0)
        mbar_init(&bar, blockDim.x);
    __syncthreads();
    for (int ph = 0; ph < 4; ph++) {
        v[ph & 1][t] = acc;
        mbar_arrive(&bar);
        mbar_wait_parity(&bar, (unsigned)ph & 1);
        acc += v[ph & 1][(t + (1 << ph)) % blockDim.x];
    }
    out[t] = acc;
}

// Producer/consumer over a two-slot ring: warp 0 produces, warps 1-3 consume; "full"
// barriers count the producer warp's 32 arrivals, "empty" ones the 96 consumers'.
extern "C" __global__ void mbar_producer_consumer(const int *in, int *out, int rounds)
{
    __shared__ int slot[2][32];
    __shared__ unsigned long long full[2], empty[2];
    int t = threadIdx.x, w = t / 32, l = t % 32;
    if (t == 0) {
        mbar_init(&full[0], 32);
        mbar_init(&full[1], 32);
        mbar_init(&empty[0], 96);
        mbar_init(&empty[1], 96);
    }
    __syncthreads();
    int acc = 0;
    for (int r = 0; r < rounds; r++) {
        int s = r & 1;
        unsigned par = (unsigned)(r >> 1) & 1;
        if (w == 0) {
            if (r >= 2)
                mbar_wait_parity(&empty[s], par ^ 1);
            slot[s][l] = in[r * 32 + l];
            mbar_arrive(&full[s]);
        } else {
            mbar_wait_parity(&full[s], par);
            acc += slot[s][(l + w) % 32] * w;
            mbar_arrive(&empty[s]);
        }
    }
    if (w > 0)
        out[t - 32] = acc;
}

// arrive_drop: half the threads leave after the first phase, so the second phase
// expects only the others; pending_count of a one-thread barrier's state.
extern "C" __global__ void mbar_arrive_drop(const int *in, int *out)
{
    __shared__ int v[128];
    __shared__ unsigned long long bar, solo;
    int t = threadIdx.x;
    if (t == 0) {
        mbar_init(&bar, blockDim.x);
        mbar_init(&solo, 3);
    }
    __syncthreads();
    v[t] = in[t];
    if (t >= 64) {
        asm volatile("mbarrier.arrive_drop.shared.b64 _, [%0];" ::"r"(smem(&bar)));
        return;
    }
    mbar_wait(&bar, mbar_arrive(&bar));
    int x = v[127 - t];
    v[t] = x + 1;
    mbar_wait(&bar, mbar_arrive(&bar)); /* phase 1 completes with 64 arrivals */
    out[t] = v[63 - t] * 1000 + x;
    if (t == 0) {
        unsigned long long s = mbar_arrive(&solo);
        unsigned cnt;
        asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(cnt) : "l"(s));
        out[64] = (int)cnt;
        asm volatile("mbarrier.arrive.shared.b64 %0, [%1], 2;" : "=l"(s) : "r"(smem(&solo)));
        unsigned done;
        asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], 0;"
                     " selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(smem(&solo)));
        out[65] = (int)done;
    }
}

// sm_90: try_wait.parity (a potentially blocking wait) and expect_tx with
// mbarrier.complete_tx: the phase completes when the arrivals and the transaction
// count are both done (§9.7.13.15.2).
extern "C" __global__ void mbar_expect_tx(const int *in, int *out)
{
    __shared__ int v[64];
    __shared__ unsigned long long bar;
    int t = threadIdx.x;
    if (t == 0)
        mbar_init(&bar, blockDim.x);
    __syncthreads();
    v[t] = in[t] + 5;
    if (t == 0)
        asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], 256;" ::"r"(smem(&bar)));
    else
        mbar_arrive(&bar);
    if (t < 4)
        asm volatile("mbarrier.complete_tx.shared.b64 [%0], 64;" ::"r"(smem(&bar)));
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], 0;"
                     " selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(smem(&bar)));
    out[t] = v[63 - t] * 2;
}
