// Every shuffle mode: idx (broadcast and out-of-range source lanes), up/down/xor with width 8, on int and float.
extern "C" __global__ void shfl_modes(const int *in, int *out, float *fout)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[i];
    int o = i * 6;
    out[o + 0] = __shfl_sync(0xffffffffu, v, 5);
    out[o + 1] = __shfl_sync(0xffffffffu, v, 37 - lane);
    out[o + 2] = __shfl_up_sync(0xffffffffu, v, 3, 8);
    out[o + 3] = __shfl_down_sync(0xffffffffu, v, 2, 8);
    out[o + 4] = __shfl_xor_sync(0xffffffffu, v, 5, 8);
    out[o + 5] = __shfl_sync(0xffffffffu, v, lane + 3, 16);
    fout[i] = __shfl_down_sync(0xffffffffu, (float)v * 0.25f, 7);
}
