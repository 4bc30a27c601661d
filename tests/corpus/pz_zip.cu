// Puzzle "zip": out[i] = a[i] + b[i] on floats (two inputs, one output).
extern "C" __global__ void pz_zip(const float *a, const float *b, float *out)
{
    int i = threadIdx.x;
    out[i] = a[i] + b[i];
}
