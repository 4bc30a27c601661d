// INFINITY, NAN, HUGE_VALF, HUGE_VAL and M_PI without an #include: nvcc includes the
// CUDA runtime headers (and math.h) in every .cu file, and NVRTC and clang must accept
// the same kernel. The float results are stored as bits: NAN is the quiet NaN
// 0x7fc00000.
extern "C" __global__ void math_macros(unsigned *bits, double *d)
{
    float f[4] = {-INFINITY, NAN, HUGE_VALF, (float)M_PI};
    for (int i = 0; i < 4; i++)
        bits[i] = __float_as_uint(f[i]);
    d[0] = HUGE_VAL;
    d[1] = M_PI;
    d[2] = M_SQRT2;
}
