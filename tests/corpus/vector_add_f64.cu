// vectorAdd kind in double precision with a guard: c = a + b.
extern "C" __global__ void vector_add_f64(const double *a, const double *b, double *c, int n)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
