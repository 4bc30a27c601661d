// Wrong: the sum goes through an int temporary and loses its fractional part.
extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int s = a[i] + b[i];
        c[i] = s;
    }
}
