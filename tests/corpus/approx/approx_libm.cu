// Standard math functions built from libdevice (nvcc/NVRTC) that use approximate instructions inside: compare within the ulp bounds in README.md.
extern "C" __global__ void approx_libm(const float *x, const double *d, float *o, double *od, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float a = x[i], p = fabsf(a) + 1e-3f;
    double v = d[i], pv = fabs(v) + 1e-3;
    float *r = o + i * 9;
    r[0] = expf(a);
    r[1] = logf(p);
    r[2] = sinf(a * 10.0f);
    r[3] = cosf(a);
    r[4] = tanf(a * 0.3f);
    r[5] = powf(p, 1.7f);
    r[6] = tanhf(a);
    r[7] = erff(a);
    r[8] = 1.0f / sqrtf(p);
    double *q = od + i * 4;
    q[0] = exp(v);
    q[1] = log(pv);
    q[2] = sin(v * 100.0);
    q[3] = cos(v);
}
