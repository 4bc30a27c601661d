// Correctly rounded f32 ops in each rounding mode: __fadd_r*, __fsub_r*, __fmul_r*, __fmaf_r*, __fdiv_r*, __frcp_r*, __fsqrt_r*, plus fmaf, sqrtf and '/'.
extern "C" __global__ void float_rounding(const float *a, const float *b, const float *c, float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i], z = c[i], ax = fabsf(x);
    float *r = o + i * 28;
    r[0] = __fadd_rn(x, y); r[1] = __fadd_rz(x, y); r[2] = __fadd_ru(x, y); r[3] = __fadd_rd(x, y);
    r[4] = __fsub_rn(x, z); r[5] = __fsub_rz(x, z); r[6] = __fsub_ru(x, z); r[7] = __fsub_rd(x, z);
    r[8] = __fmul_rn(x, y); r[9] = __fmul_rz(x, y); r[10] = __fmul_ru(x, y); r[11] = __fmul_rd(x, y);
    r[12] = __fmaf_rn(x, y, z); r[13] = __fmaf_rz(x, y, z); r[14] = __fmaf_ru(x, y, z); r[15] = __fmaf_rd(x, y, z);
    r[16] = __fdiv_rn(x, y); r[17] = __fdiv_rz(x, y); r[18] = __fdiv_ru(x, y); r[19] = __fdiv_rd(x, y);
    r[20] = __frcp_rn(y); r[21] = __frcp_rz(y); r[22] = __frcp_ru(y); r[23] = __frcp_rd(y);
    r[24] = __fsqrt_rn(ax); r[25] = __fsqrt_rz(ax) + __fsqrt_ru(ax) * 0.0f; r[26] = sqrtf(ax) - __fsqrt_rd(ax);
    r[27] = fmaf(x, y, z) - x / y;
}
