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
        switch (v) {
        case 0: asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(a), "r"(r0)); break;
        case 1: asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" ::"r"(a), "r"(r0)); break;
        case 2: asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(a), "r"(r0), "r"(r1)); break;
        case 3: asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" ::"r"(a), "r"(r0), "r"(r1)); break;
        case 4: asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(r0), "r"(r1), "r"(r2), "r"(r3)); break;
        default: asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(r0), "r"(r1), "r"(r2), "r"(r3)); break;
        }
        __syncwarp();
        for (int i = l; i < 288; i += 32)
            out[v * 288 + i] = s[i];
        __syncwarp();
    }
}
