// __match_any_sync, __match_all_sync, __reduce_*_sync (sm_80), __syncwarp, __activemask
// in divergent code. Needs CUDA headers (nvcc).
extern "C" __global__ void warp_match(const unsigned *in, unsigned *out)
{
    int i = threadIdx.x;
    unsigned v = in[i];
    unsigned *o = out + i * 8;
    o[0] = __match_any_sync(0xffffffffu, v % 4);
    int pred;
    o[1] = __match_all_sync(0xffffffffu, v & 0x10000, &pred);
    o[2] = (unsigned)pred;
#if __CUDA_ARCH__ >= 800 /* redux.sync; gpulearn run may compile for an older arch */
    o[3] = __reduce_add_sync(0xffffffffu, v);
    o[4] = __reduce_min_sync(0xffffffffu, v);
    o[5] = __reduce_max_sync(0xffffffffu, (int)v - 40);
    o[6] = __reduce_or_sync(0xffffffffu, v);
#else
    o[3] = o[4] = o[5] = o[6] = 0;
#endif
    if (i % 3 == 0)
        o[7] = __activemask();
    else
        o[7] = 0;
    __syncwarp();
}
