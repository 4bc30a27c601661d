// NaN, +-inf and out-of-range values through every float-to-integer cvt form (inline PTX,
// so each row is exactly one cvt): the PTX ISA (§9.7.9.21 cvt) does not say what NaN
// gives. Seen on an H200 (tests/corpus/cvt_float_int, cvt_double): f32 -> s32/u32 gives 0,
// any -> s64/u64 gives 0x8000000000000000, f64 -> s32 gives 0x80000000. The rest is what
// this probe records: run it on a GPU and on the simulator and compare
// (gpulearn run tests/kernels/ops/cvt_nan_probe.json --backend gpu|sim --dump-json F).
// Rows per input (out[i * 12 + k], as unsigned long long):
//  0 cvt.rzi.s32.f32   1 cvt.rzi.u32.f32   2 cvt.rzi.s16.f32   3 cvt.rzi.u16.f32
//  4 cvt.rzi.s8.f32    5 cvt.rzi.u8.f32    6 cvt.rzi.s32.f64   7 cvt.rzi.u32.f64
//  8 cvt.rzi.s16.f64   9 cvt.rzi.u16.f64  10 cvt.rzi.s8.f64   11 cvt.rzi.u8.f64
extern "C" __global__ void cvt_nan_probe(const float *f, const double *d, unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = f[i];
    double y = d[i];
    unsigned r[12];
    asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(r[0]) : "f"(x));
    asm("cvt.rzi.u32.f32 %0, %1;" : "=r"(r[1]) : "f"(x));
    asm("{ .reg .s16 h; cvt.rzi.s16.f32 h, %1; cvt.u32.u16 %0, h; }" : "=r"(r[2]) : "f"(x));
    asm("{ .reg .u16 h; cvt.rzi.u16.f32 h, %1; cvt.u32.u16 %0, h; }" : "=r"(r[3]) : "f"(x));
    asm("{ .reg .s16 h; cvt.rzi.s8.f32 h, %1; cvt.u32.u16 %0, h; }" : "=r"(r[4]) : "f"(x));
    asm("{ .reg .u16 h; cvt.rzi.u8.f32 h, %1; cvt.u32.u16 %0, h; }" : "=r"(r[5]) : "f"(x));
    asm("cvt.rzi.s32.f64 %0, %1;" : "=r"(r[6]) : "d"(y));
    asm("cvt.rzi.u32.f64 %0, %1;" : "=r"(r[7]) : "d"(y));
    asm("{ .reg .s16 h; cvt.rzi.s16.f64 h, %1; cvt.u32.u16 %0, h; }" : "=r"(r[8]) : "d"(y));
    asm("{ .reg .u16 h; cvt.rzi.u16.f64 h, %1; cvt.u32.u16 %0, h; }" : "=r"(r[9]) : "d"(y));
    asm("{ .reg .s16 h; cvt.rzi.s8.f64 h, %1; cvt.u32.u16 %0, h; }" : "=r"(r[10]) : "d"(y));
    asm("{ .reg .u16 h; cvt.rzi.u8.f64 h, %1; cvt.u32.u16 %0, h; }" : "=r"(r[11]) : "d"(y));
    for (int k = 0; k < 12; k++)
        out[i * 12 + k] = r[k];
}
