// Coalesced vs strided: out[i] = in[(i * stride) % n] (gather with a stride) and out2[i] = in[i] (coalesced).
extern "C" __global__ void strided_copy(const float *in, float *out, float *out2, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[(int)(((long long)i * stride) % n)];
        out2[i] = in[i];
    }
}
