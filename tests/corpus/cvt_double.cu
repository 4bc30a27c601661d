// f64 conversions: __double2float_rn/rz/ru/rd, float->double, __double2int_r*, __double2ll_rn, (long long)d, __ll2double_rn, bit casts, __double2hiint/loint, __hiloint2double.
extern "C" __global__ void cvt_double(const double *d, const long long *k, double *od, float *of, long long *ol, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = d[i];
    long long v = k[i];
    float *rf = of + i * 5;
    rf[0] = __double2float_rn(x); rf[1] = __double2float_rz(x); rf[2] = __double2float_ru(x); rf[3] = __double2float_rd(x);
    rf[4] = (float)v;
    long long *rl = ol + i * 8;
    rl[0] = __double2int_rn(x); rl[1] = __double2int_rz(x); rl[2] = __double2int_rd(x); rl[3] = __double2int_ru(x);
    rl[4] = __double2ll_rn(x); rl[5] = (long long)x; rl[6] = (long long)(unsigned long long)x;
    rl[7] = __double_as_longlong(x) ^ ((long long)__double2hiint(x) << 1) ^ (unsigned)__double2loint(x);
    double *rd = od + i * 4;
    rd[0] = (double)(float)x;
    rd[1] = __ll2double_rn(v);
    rd[2] = __hiloint2double((int)(v >> 32) & 0x3fffffff, (int)v);
    rd[3] = (double)(unsigned long long)v + (double)(int)v;
}
