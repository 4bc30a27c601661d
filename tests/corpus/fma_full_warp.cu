// fma.rn.f32 issued to full warps (the simulator's vector path): NaN results (inf * 0 + c, inf - inf) and NaN inputs with payloads, infinities, signed zeros, subnormal results, overflow, and the single rounding of a fused multiply-add; bit patterns in and out.
extern "C" __global__ void fma_full_warp(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    o[i] = __float_as_uint(fmaf(__uint_as_float(a[i]), __uint_as_float(b[i]), __uint_as_float(c[i])));
}
