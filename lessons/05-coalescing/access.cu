// Three copies that differ only in which addresses a warp's lanes touch.
extern "C" __global__ void copy_coalesced(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

// Lane i reads element i * stride: the warp's addresses spread over stride * 128 bytes.
extern "C" __global__ void copy_strided(const float *in, float *out, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * stride];
}

// Shifted by `offset` elements: the warp's 128 bytes straddle one more sector.
extern "C" __global__ void copy_offset(const float *in, float *out, int offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + offset];
}
