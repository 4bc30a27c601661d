// Wrong: correct output, still diverges on parity (a different but equivalent formulation).
__device__ float work_a(float x) { for (int k = 0; k < 16; k++) x = x * 0.5f + 1.0f; return x; }
__device__ float work_b(float x) { for (int k = 0; k < 16; k++) x = x * x * 0.25f - 1.0f; return x; }
extern "C" __global__ void parity(const float *in, float *out, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        if ((threadIdx.x & 1) == 0)
            out[j] = work_a(in[j]);
        else
            out[j] = work_b(in[j]);
    }
}
