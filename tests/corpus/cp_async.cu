// cp.async (PTX ISA §9.7.9.25): asynchronous copies from global to shared memory, made
// visible by cp.async.wait_group / wait_all (§9.7.9.25.3.3) or an mbarrier (§9.7.9.25.3.4).
// Written as inline PTX so that every compiler emits the same forms.
// the shared-window address of a generic pointer to shared memory (cvta.to.shared)
__device__ __forceinline__ unsigned smem(const void *p)
{
    unsigned r;
    asm("{ .reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a; }" : "=r"(r) : "l"(p));
    return r;
}

// Each thread copies 4, 8 or 16 bytes (cp-size) into shared memory; the block then
// writes shared memory back reversed. .ca for 4 and 8, .cg for 16.
extern "C" __global__ void cp_async_copy(const unsigned *in, unsigned *out, int size)
{
    __shared__ unsigned buf[256 * 4] __attribute__((aligned(16)));
    int t = threadIdx.x, words = size / 4, base = blockIdx.x * blockDim.x * words;
    unsigned d = smem(&buf[t * words]);
    const unsigned *s = in + base + t * words;
    if (size == 4)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(d), "l"(s));
    else if (size == 8)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(d), "l"(s));
    else
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d), "l"(s));
    asm volatile("cp.async.commit_group;");
    asm volatile("cp.async.wait_group 0;");
    __syncthreads();
    int n = blockDim.x * words;
    for (int k = t; k < n; k += blockDim.x)
        out[base + k] = buf[n - 1 - k] * 3u + (unsigned)k;
}

// src-size below cp-size: the rest of the 16 bytes is zero-filled (ignore-src form).
extern "C" __global__ void cp_async_zfill(const unsigned char *in, unsigned char *out)
{
    __shared__ unsigned char buf[64 * 16] __attribute__((aligned(16)));
    int t = threadIdx.x;
    for (int k = 0; k < 16; k++)
        buf[t * 16 + k] = 0xee;
    __syncthreads();
    unsigned srcsize = (unsigned)t % 17;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smem(&buf[t * 16])),
                 "l"(in + t * 16), "r"(srcsize));
    asm volatile("cp.async.wait_all;");
    __syncthreads();
    for (int k = 0; k < 16; k++)
        out[t * 16 + k] = buf[((t + 1) % blockDim.x) * 16 + k];
}

// A double-buffered pipeline: tile i + 1 is in flight while tile i is summed; one
// commit_group per tile and wait_group 1 (the newest group may still be pending).
extern "C" __global__ void cp_async_pipeline(const float *in, float *out, int tiles)
{
    __shared__ float buf[2][128] __attribute__((aligned(16)));
    int t = threadIdx.x;
    const float *src = in + blockIdx.x * tiles * 128;
    float acc = 0;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem(&buf[0][t])), "l"(src + t));
    asm volatile("cp.async.commit_group;");
    for (int i = 0; i < tiles; i++) {
        if (i + 1 < tiles)
            asm volatile("cp.async.ca.shared.global [%0], [%1], 4;"
                         ::"r"(smem(&buf[(i + 1) & 1][t])), "l"(src + (i + 1) * 128 + t));
        asm volatile("cp.async.commit_group;");
        asm volatile("cp.async.wait_group 1;");
        __syncthreads();
        acc += buf[i & 1][(t * 5 + i) % 128] * (float)(i + 1);
        __syncthreads();
    }
    asm volatile("cp.async.wait_all;");
    out[blockIdx.x * 128 + t] = acc;
}

// Three groups in flight; wait_group 2, 1, 0 release them oldest first.
extern "C" __global__ void cp_async_groups(const int *in, int *out)
{
    __shared__ int buf[3][64] __attribute__((aligned(16)));
    int t = threadIdx.x;
    for (int g = 0; g < 3; g++) {
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem(&buf[g][t])),
                     "l"(in + g * 64 + t));
        asm volatile("cp.async.commit_group;");
    }
    asm volatile("cp.async.wait_group 2;");
    __syncthreads();
    int a = buf[0][63 - t];
    asm volatile("cp.async.wait_group 1;");
    __syncthreads();
    int b = buf[1][(t + 7) % 64];
    asm volatile("cp.async.wait_group 0;");
    __syncthreads();
    out[t] = a * 100 + b * 10 + buf[2][t ^ 1];
}

// cp.async.mbarrier.arrive: the mbarrier's phase completes when every thread's
// copies have landed (§9.7.13.15.13), then the block reads them.
extern "C" __global__ void cp_async_mbarrier(const unsigned *in, unsigned *out)
{
    __shared__ unsigned buf[128] __attribute__((aligned(16)));
    __shared__ unsigned long long bar;
    int t = threadIdx.x;
    if (t == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(smem(&bar)), "r"(blockDim.x));
    __syncthreads();
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem(&buf[t])), "l"(in + t));
    asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" ::"r"(smem(&bar)));
    asm volatile("mbarrier.arrive.shared.b64 _, [%0];" ::"r"(smem(&bar)));
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], 0;"
                     " selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(smem(&bar)));
    out[t] = buf[(t + 1) % blockDim.x] + buf[t];
}

// A tail copy: the last thread's 16-byte copy reaches past the end of `in` (n = 37 words),
// but src-size says only the words below n are read; the rest is zero-filled. Only
// src-size bytes of the source are accessed, so this is in bounds (§9.7.9.25.3.1).
extern "C" __global__ void cp_async_tail(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned buf[16 * 4] __attribute__((aligned(16)));
    int t = threadIdx.x, left = n - 4 * t;
    unsigned srcsize = left >= 4 ? 16u : left > 0 ? 4u * (unsigned)left : 0u;
    const unsigned *s = left > 0 ? in + 4 * t : in;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smem(&buf[4 * t])), "l"(s),
                 "r"(srcsize));
    asm volatile("cp.async.wait_all;");
    __syncthreads();
    for (int k = 0; k < 4; k++)
        out[4 * t + k] = buf[(4 * t + k + 5) % (4 * blockDim.x)] + 1000u * (unsigned)k;
}
