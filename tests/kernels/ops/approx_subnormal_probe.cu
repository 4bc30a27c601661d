// approx_subnormal_probe.cu — the approximate f32 instructions (no .ftz) on subnormal operands
// and results, run on an H100 and on the simulator by tools/gpu_check.sh (the findings are
// rows of tests/test_sim_ops.c: div.approx scales a subnormal divisor).
#define OP1(name, ins)                                                                   \
    __device__ float name(float x)                                                       \
    {                                                                                    \
        float r;                                                                         \
        asm(ins " %0, %1;" : "=f"(r) : "f"(x));                                          \
        return r;                                                                        \
    }
OP1(rcp_a, "rcp.approx.f32")
OP1(sqrt_a, "sqrt.approx.f32")
OP1(rsqrt_a, "rsqrt.approx.f32")
OP1(lg2_a, "lg2.approx.f32")
OP1(ex2_a, "ex2.approx.f32")
OP1(sin_a, "sin.approx.f32")
OP1(cos_a, "cos.approx.f32")
OP1(tanh_a, "tanh.approx.f32")
#define OP2(name, ins)                                                                   \
    __device__ float name(float x, float y)                                              \
    {                                                                                    \
        float r;                                                                         \
        asm(ins " %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));                              \
        return r;                                                                        \
    }
OP2(div_a, "div.approx.f32")
OP2(div_f, "div.full.f32")
extern "C" __global__ void k(const unsigned *a, const unsigned *b, unsigned *o)
{
    const int t = threadIdx.x;
    const float x = __uint_as_float(a[t]), y = __uint_as_float(b[t]);
    unsigned *r = o + t * 11;
    r[0] = __float_as_uint(div_a(x, y));
    r[1] = __float_as_uint(div_f(x, y));
    r[2] = __float_as_uint(rcp_a(y));
    r[3] = __float_as_uint(sqrt_a(y));
    r[4] = __float_as_uint(rsqrt_a(y));
    r[5] = __float_as_uint(lg2_a(y));
    r[6] = __float_as_uint(ex2_a(-126.0f - (float)(t % 32) * 0.75f));
    r[7] = __float_as_uint(sin_a(y));
    r[8] = __float_as_uint(cos_a(y));
    r[9] = __float_as_uint(tanh_a(y));
    r[10] = __float_as_uint(div_a(y, x));
}
