// Kernels for tests/tui_roofline.sh: one warp does one tensor-core product (PTX ISA
// §9.7.14.5.14 mma.sync m16n8k16 .f16 inputs, f32 accumulators: 2 x 16 x 8 x 16 = 4096
// FLOPs) and `reps` FP32 multiply-adds per lane (2 x 32 x reps FLOPs), so that which roof
// binds depends on reps: on an A100, 4096 FLOPs take 13 ps of the f16 tensor roof (312
// TFLOP/s), 2 x 32 x 1000 take 3.3 ns of the FP32 one (19.5 TFLOP/s).
#include <cuda_fp16.h>

extern "C" __global__ void mixed(const float *x, float *out, int reps)
{
    const unsigned lane = threadIdx.x % 32;
    // A (16 x 16) and B (16 x 8) fragments: four and two registers of two halves each
    unsigned a[4], b[2];
    for (int i = 0; i < 4; i++) {
        __half2 h = __floats2half2_rn(x[lane], x[lane]);
        a[i] = *reinterpret_cast<unsigned *>(&h);
    }
    for (int i = 0; i < 2; i++) {
        __half2 h = __floats2half2_rn(1.0f, 1.0f);
        b[i] = *reinterpret_cast<unsigned *>(&h);
    }
    float d[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    float s = d[0] + d[1] + d[2] + d[3], v = x[lane];
    for (int i = 0; i < reps; i++)
        s = fmaf(s, 0.5f, v);
    out[lane] = s;
}
