// ldmatrix (PTX ISA §9.7.14.5.15): .x1, .x2 and .x4, each with and without .trans, from
// 8x8 matrices of b16 in shared memory. Lanes 8i ... 8i+7 name the rows of matrix i;
// here in reverse order and with a 16-byte gap after each matrix, so that a wrong row
// or matrix shows. out: x1, x1.trans (32 words each), x2, x2.trans (64), x4, x4.trans
// (128): register i of lane l at out[.. + l * n + i].
__device__ __forceinline__ unsigned saddr(const void *p)
{
    unsigned a;
    asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(a) : "l"(p));
    return a;
}

extern "C" __global__ void ldmatrix_all(const unsigned short *in, unsigned *out)
{
    __shared__ __attribute__((aligned(16))) unsigned short s[4 * 9 * 8];
    const int l = threadIdx.x;
    for (int i = l; i < 4 * 9 * 8; i += 32)
        s[i] = in[i];
    __syncwarp();
    const unsigned a = saddr(&s[((l / 8) * 9 + 7 - l % 8) * 8]);
    unsigned r[4];
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(a));
    out[l] = r[0];
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
                 : "=r"(r[0])
                 : "r"(a));
    out[32 + l] = r[0];
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(a));
    for (int i = 0; i < 2; i++)
        out[64 + l * 2 + i] = r[i];
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(a));
    for (int i = 0; i < 2; i++)
        out[128 + l * 2 + i] = r[i];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
    for (int i = 0; i < 4; i++)
        out[192 + l * 4 + i] = r[i];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
    for (int i = 0; i < 4; i++)
        out[320 + l * 4 + i] = r[i];
}
