// Reference solution (hidden from learners): block-stride over the block's 512
// elements, so consecutive lanes touch consecutive floats.
extern "C" __global__ void scale4(const float *in, float *out, int n)
{
    int base = blockIdx.x * 512 + threadIdx.x;
    for (int k = 0; k < 4; k++) {
        int j = base + k * 128;
        if (j < n)
            out[j] = 2.0f * in[j] + 1.0f;
    }
}
