// stmatrix (PTX ISA §9.7.14.5.16, sm_90): .x1, .x2 and .x4, with and without .trans.
// Register i of lane l holds row l / 4, columns 2 (l % 4) and the next of matrix i
// (here in[(i * 32 + l)]); lanes 8i ... 8i+7 name the rows of matrix i in shared memory,
// in reverse order with a 16-byte gap after each matrix (as ldmatrix.cu). out: the
// shared memory after each of the six stores (288 halves each, poisoned with 0xffff
// first). Needs sm_90.
__device__ __forceinline__ unsigned saddr(const void *p)
{
    unsigned a;
    asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(a) : "l"(p));
    return a;
}

extern "C" __global__ void stmatrix_all(const unsigned *in, unsigned short *out)
{
    __shared__ __attribute__((aligned(16))) unsigned short s[4 * 9 * 8];
    const int l = threadIdx.x;
    const unsigned a = saddr(&s[((l / 8) * 9 + 7 - l % 8) * 8]);
    const unsigned r0 = in[l], r1 = in[32 + l], r2 = in[64 + l], r3 = in[96 + l];
    for (int v = 0; v < 6; v++) {
        for (int i = l; i < 288; i += 32)
            s[i] = 0xffff;
        __syncwarp();
#define ST(MODS, LIST, ...)                                                                   \
    asm volatile("stmatrix.sync.aligned.m8n8." MODS ".shared.b16 [%0], " LIST ";" ::"r"(a),      \
                 __VA_ARGS__)
        switch (v) {
        case 0: ST("x1", "{%1}", "r"(r0)); break;
        case 1: ST("x1.trans", "{%1}", "r"(r0)); break;
        case 2: ST("x2", "{%1, %2}", "r"(r0), "r"(r1)); break;
        case 3: ST("x2.trans", "{%1, %2}", "r"(r0), "r"(r1)); break;
        case 4: ST("x4", "{%1, %2, %3, %4}", "r"(r0), "r"(r1), "r"(r2), "r"(r3)); break;
        default: ST("x4.trans", "{%1, %2, %3, %4}", "r"(r0), "r"(r1), "r"(r2), "r"(r3)); break;
        }
        __syncwarp();
        for (int i = l; i < 288; i += 32)
            out[v * 288 + i] = s[i];
        __syncwarp();
    }
}
