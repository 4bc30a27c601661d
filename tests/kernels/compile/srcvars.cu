// Source variables for tests/test_srcvars.c: i and sum live in registers.
extern "C" __global__ void scale(const float *a, float *out, int n, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    if (i < n) {
        float x = a[i];
        sum = x * s + 1.0f;
        out[i] = sum;
    }
}
