// Vector loads and stores: float4 and int2 (ld/st .v4/.v2), int4 through shared memory, make_float4/make_int2.
extern "C" __global__ void vector_loads(const float4 *a, const int2 *b, float4 *fo, int2 *io, int4 *qo, int n)
{
    __shared__ int4 s[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x, t = threadIdx.x;
    float4 f = i < n ? a[i] : make_float4(0, 0, 0, 0);
    int2 p = i < n ? b[i] : make_int2(0, 0);
    s[t] = make_int4(p.x, p.y, p.x - p.y, t);
    __syncthreads();
    if (i < n) {
        fo[i] = make_float4(f.w * 2.0f, f.z + f.y, f.x - 1.0f, f.x + f.w);
        io[i] = make_int2(p.y, p.x ^ p.y);
        qo[i] = s[(t + 1) % blockDim.x];
    }
}
