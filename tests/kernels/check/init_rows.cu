// init_rows.cu — initcheck of global loads in a 16x16 block, whose warps read two rows
// of 16 words (one per half-warp) and broadcast one word per half-warp: the patterns
// the simulator checks two ranges at a time (test_sim_check.c).
extern "C" __global__ void rows(const float *g, float *out)
{
    int tx = threadIdx.x, ty = threadIdx.y;
    out[ty * 16 + tx] = g[ty * 16 + tx] + g[ty];
}
