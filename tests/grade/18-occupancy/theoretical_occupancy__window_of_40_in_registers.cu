// Wrong: right sums and no shared memory, but each thread keeps a window of 40 inputs in
// registers to produce 32 consecutive outputs (the loops fully unrolled): ptxas gives it
// 72 registers per thread for sm_75 (`ptxas -v`, CUDA 13; more than 64), a warp 2304, so
// each of an SM's 4 sub-partitions holds 7 warps: 28 warps, 3 blocks of 8, 75%.
// Registers, not threads, set the limit. Without a CUDA Toolkit the check is NOT RUN.
// expect-advice: Registers set the limit:
// expect-advice: an SM holds 3 blocks of 8 warps
#define R 4
#define SEG 8192
#define PER 32 /* outputs per thread: 256 threads x 32 = SEG */

extern "C" __global__ void moving_sum(const float *x, float *y, int n)
{
    int first = blockIdx.x * SEG + threadIdx.x * PER;
    float w[PER + 2 * R];
#pragma unroll
    for (int k = 0; k < PER + 2 * R; k++) {
        int g = first - R + k;
        w[k] = g >= 0 && g < n ? x[g] : 0.0f;
    }
    float out[PER];
#pragma unroll
    for (int k = 0; k < PER; k++) {
        float s = 0.0f;
#pragma unroll
        for (int j = 0; j <= 2 * R; j++)
            s += w[k + j];
        out[k] = s;
    }
#pragma unroll
    for (int k = 0; k < PER; k++)
        if (first + k < n)
            y[first + k] = out[k];
}
