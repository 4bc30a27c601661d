// Probes the floating-point accumulation of mma.sync (PTX ISA §9.7.14.5.14 leaves it
// to the hardware): block p computes one dot product c[p] + sum_k a[p*16+k] * b[p*16+k]
// as D[0][0] of one mma with every other element of A, B and C zero, and writes D[0][0]'s
// bits to d[p] (f16 and bf16: m16n8k16, all 16 products; tf32: m16n8k8, the first 8).
// The inputs (tools/mma_probe.py writes them) are exact in every input type: chosen so
// that the result shows how many products are added at once and how many fractional bits
// survive the alignment (mma.h mma_fp_model). tools/mma_probe.py fits the
// simulator's model to a GPU's golden and says how to read one by hand.
__device__ __forceinline__ unsigned cv(float x, int type)
{
    unsigned short h;
    if (type == 0)
        asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
    else
        asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(x));
    return h;
}

// type: 0 f16, 1 bf16, 2 tf32
extern "C" __global__ void mma_probe(const float *a, const float *b, const float *c,
                                     unsigned *d, int type)
{
    const int lane = threadIdx.x, g = lane >> 2, t = lane & 3, p = blockIdx.x;
    a += p * 16, b += p * 16;
    unsigned ra[4] = {0, 0, 0, 0}, rb[2] = {0, 0};
    float rc[4] = {0, 0, 0, 0}, rd[4];
    if (g == 0 && type < 2) { // row 0 of A: registers 0 and 2; column 0 of B: 0 and 1
        ra[0] = cv(a[2 * t], type) | cv(a[2 * t + 1], type) << 16;
        ra[2] = cv(a[2 * t + 8], type) | cv(a[2 * t + 9], type) << 16;
        rb[0] = cv(b[2 * t], type) | cv(b[2 * t + 1], type) << 16;
        rb[1] = cv(b[2 * t + 8], type) | cv(b[2 * t + 9], type) << 16;
    } else if (g == 0) { // tf32 m16n8k8: A row 0 in registers 0 (col t) and 2 (t + 4)
        ra[0] = __float_as_uint(a[t]);
        ra[2] = __float_as_uint(a[t + 4]);
        rb[0] = __float_as_uint(b[t]);
        rb[1] = __float_as_uint(b[t + 4]);
    }
    if (lane == 0)
        rc[0] = c[p];
    if (type == 0)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
                     "{%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3])
                     : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]),
                       "f"(rc[0]), "f"(rc[1]), "f"(rc[2]), "f"(rc[3]));
    else if (type == 1)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
                     "{%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3])
                     : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]),
                       "f"(rc[0]), "f"(rc[1]), "f"(rc[2]), "f"(rc[3]));
    else
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, "
                     "{%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3])
                     : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]),
                       "f"(rc[0]), "f"(rc[1]), "f"(rc[2]), "f"(rc[3]));
    if (lane == 0)
        d[p] = __float_as_uint(rd[0]);
}
