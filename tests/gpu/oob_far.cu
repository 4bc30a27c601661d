// Writes 1 GiB past the end of its 32-float buffer. Nothing is mapped there in a fresh
// process, so on a GPU this is CUDA_ERROR_ILLEGAL_ADDRESS (tests/test_gpu.c).
extern "C" __global__ void oob_far(float *out)
{
    size_t far = (size_t)1 << 28; // 2^28 floats = 1 GiB
    out[threadIdx.x + far] = 1.0f;
}
