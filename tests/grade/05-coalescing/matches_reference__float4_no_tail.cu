// Wrong: float4 per lane, but the last 1 to 3 elements when n is not a multiple of 4 are never handled.
extern "C" __global__ void scale4(const float *in, float *out, int n)
{
    int j = blockIdx.x * 512 + threadIdx.x * 4;
    if (j + 3 < n) {
        float4 v = reinterpret_cast<const float4 *>(in)[j / 4];
        v.x = 2.0f * v.x + 1.0f;
        v.y = 2.0f * v.y + 1.0f;
        v.z = 2.0f * v.z + 1.0f;
        v.w = 2.0f * v.w + 1.0f;
        reinterpret_cast<float4 *>(out)[j / 4] = v;
    }
}
