// Wrong: correct output, but pairs: lane t handles 2t and 2t + 1 of each 256-element half.
extern "C" __global__ void scale4(const float *in, float *out, int n)
{
    for (int h = 0; h < 2; h++)
        for (int k = 0; k < 2; k++) {
            int j = blockIdx.x * 512 + h * 256 + 2 * threadIdx.x + k;
            if (j < n)
                out[j] = 2.0f * in[j] + 1.0f;
        }
}
