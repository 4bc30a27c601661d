// f64 arithmetic: add/sub/mul/fma/div/sqrt (correctly rounded), __drcp_rn, __dadd_rz/__dmul_ru/__ddiv_rd, fmin/fmax with NaN, fabs.
extern "C" __global__ void double_math(const double *a, const double *b, double *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = a[i], y = b[i];
    double *r = o + i * 12;
    r[0] = x + y;
    r[1] = x - y * 3.0;
    r[2] = __dmul_rn(x, y);
    r[3] = fma(x, y, -x);
    r[4] = x / y;
    r[5] = sqrt(fabs(x));
    r[6] = __drcp_rn(y);
    r[7] = __dadd_rz(x, y);
    r[8] = __dmul_ru(x, y);
    r[9] = __ddiv_rd(x, y);
    r[10] = fmin(x, y);
    r[11] = fmax(x, y);
}
