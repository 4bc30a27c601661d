// Wrong: guards only the first element of the thread's four.
extern "C" __global__ void scale4(const float *in, float *out, int n)
{
    int base = blockIdx.x * 512 + threadIdx.x;
    if (base >= n)
        return;
    for (int k = 0; k < 4; k++) {
        int j = base + k * 128;
        out[j] = 2.0f * in[j] + 1.0f;
    }
}
