// Wrong: off by one in the guard (j < n - 1), so the last element is never written.
extern "C" __global__ void scale4(const float *in, float *out, int n)
{
    int base = blockIdx.x * 512 + threadIdx.x;
    for (int k = 0; k < 4; k++) {
        int j = base + k * 128;
        if (j < n - 1)
            out[j] = 2.0f * in[j] + 1.0f;
    }
}
