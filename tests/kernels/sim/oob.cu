// Out-of-bounds write: no guard, so threads past n write past the end of c.
extern "C" __global__ void oob_write(float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = (float)n;
}
