// Wrong: correct output, but the starter's four consecutive elements are moved as two float2: each request uses 8 of every 16 bytes its lanes span (50% of each sector).
extern "C" __global__ void scale4(const float *in, float *out, int n)
{
    int j = blockIdx.x * 512 + threadIdx.x * 4;
    if (j + 3 < n) {
        for (int h = 0; h < 2; h++) {
            float2 v = reinterpret_cast<const float2 *>(in)[j / 2 + h];
            v.x = 2.0f * v.x + 1.0f;
            v.y = 2.0f * v.y + 1.0f;
            reinterpret_cast<float2 *>(out)[j / 2 + h] = v;
        }
    } else {
        for (int k = j; k < n && k < j + 4; k++)
            out[k] = 2.0f * in[k] + 1.0f;
    }
}
