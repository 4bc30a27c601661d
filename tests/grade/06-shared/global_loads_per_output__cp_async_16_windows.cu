// Wrong: each of the first 16 threads of a block copies its own window of 16 inputs
// into shared memory with four 16-byte cp.async and computes eight outputs from it: the
// windows overlap, 2 loads per output however few copy instructions that takes.
#define B 128
#define STRIDE 20 // words per window: 16-byte rows of 8 lanes in distinct banks

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    unsigned r;
    asm("{ .reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a; }" : "=r"(r) : "l"(p));
    return r;
}

__device__ __forceinline__ void cp_async16(int *dst, const int *src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_addr(dst)), "l"(src)
                 : "memory");
}

// 4 bytes, or 4 zero bytes where valid is false (src-size 0).
__device__ __forceinline__ void cp_async4(int *dst, const int *src, bool valid)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(smem_addr(dst)), "l"(src),
                 "r"(valid ? 4 : 0)
                 : "memory");
}

extern "C" __global__ void stencil(const int *in, int *out, int n)
{
    __shared__ __attribute__((aligned(16))) int win[B / 8][STRIDE]; // win[t][0..15] = in[i - 4 .. i + 11]
    int t = threadIdx.x, i = blockIdx.x * B + 8 * t;  // outputs i .. i + 7
    if (t < B / 8 && i < n)
        for (int c = 0; c < 4; c++) {
            int j = i - 4 + 4 * c;
            if (j >= 0 && j + 4 <= n)
                cp_async16(&win[t][4 * c], &in[j]);
            else
                for (int q = 0; q < 4; q++) {
                    bool ok = j + q >= 0 && j + q < n;
                    cp_async4(&win[t][4 * c + q], ok ? &in[j + q] : in, ok);
                }
        }
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    if (t < B / 8 && i < n) {
        int w[16];
        for (int c = 0; c < 4; c++) {
            int4 v = *(const int4 *)&win[t][4 * c];
            w[4 * c] = v.x, w[4 * c + 1] = v.y, w[4 * c + 2] = v.z, w[4 * c + 3] = v.w;
        }
        for (int o = 0; o < 8 && i + o < n; o++) {
            int s = 0;
            for (int k = 1; k <= 7; k++)
                s += w[o + k];
            out[i + o] = s;
        }
    }
}
// expect-advice: into shared memory
