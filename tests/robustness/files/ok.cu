extern "C" __global__ void add1(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1;
}

extern "C" __global__ void two(int *a, int *b) { a[0] = b[0]; }

extern "C" __global__ void five(double *a, double *b, double *c, double *d, double *e) { a[0] = b[0] + c[0] + d[0] + e[0]; }
