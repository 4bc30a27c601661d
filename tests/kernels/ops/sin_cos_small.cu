// sin_cos_small.cu — sin/cos.approx.f32 on small and large arguments, run on an H100 and on
// the simulator by tools/gpu_check.sh (the findings are rows of tests/test_sim_ops.c: the
// argument in turns on a 2^-25 grid).
extern "C" __global__ void k(const float *x, unsigned *o)
{
    const int t = threadIdx.x;
    float s, c;
    asm("sin.approx.f32 %0, %1;" : "=f"(s) : "f"(x[t]));
    asm("cos.approx.f32 %0, %1;" : "=f"(c) : "f"(x[t]));
    o[2 * t] = __float_as_uint(s);
    o[2 * t + 1] = __float_as_uint(c);
}
