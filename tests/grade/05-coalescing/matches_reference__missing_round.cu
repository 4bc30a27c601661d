// Wrong: only 3 rounds.
extern "C" __global__ void scale4(const float *in, float *out, int n)
{
    for (int k = 0; k < 3; k++) {
        int j = blockIdx.x * 512 + k * 128 + threadIdx.x;
        if (j < n)
            out[j] = 2.0f * in[j] + 1.0f;
    }
}
