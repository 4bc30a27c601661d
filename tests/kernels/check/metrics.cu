// Kernels with known Nsight-style metrics (tests/test_analysis.c). Line numbers are
// asserted by the tests: edit with care.
extern "C" __global__ void copy_coalesced(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

extern "C" __global__ void copy_strided(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * 32];
}

// Each thread writes and reads the word 2*t: a 2-way bank conflict.
extern "C" __global__ void shared_stride2(float *out)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    s[2 * t] = (float)t;
    __syncthreads();
    out[t] = s[2 * ((t + 1) % 32)];
}

// Column reads of a 32x32 tile: a 32-way conflict; with a padded row of 33: none.
extern "C" __global__ void tile_column(float *out)
{
    __shared__ float tile[32][32];
    __shared__ float padded[32][33];
    int t = threadIdx.x;
    _Pragma("unroll 1") for (int r = 0; r < 32; r++) {
        tile[r][t] = (float)(r + t);
        padded[r][t] = (float)(r - t);
    }
    __syncthreads();
    float a = tile[t][0];
    float b = padded[t][0];
    float c = tile[0][0];
    out[t] = a + b + c;
}

// Half of each warp runs one loop, the other half another: each loop body runs with
// 16 of 32 lanes active.
extern "C" __global__ void divergent_loops(const float *in, float *out, int n)
{
    int t = threadIdx.x;
    float acc = 0.0f;
    if (t % 32 < 16) {
        _Pragma("unroll 1") for (int k = 0; k < n; k++)
            acc += in[k];
    } else {
        _Pragma("unroll 1") for (int k = 0; k < n; k++)
            acc = acc * in[k] - 1.0f;
    }
    out[t] = acc;
}

// Every thread adds 1 to one of 4 counters.
extern "C" __global__ void four_counters(int *bins)
{
    atomicAdd(&bins[threadIdx.x % 4], 1);
}

// Hillis-Steele inclusive scan of one warp-sized block (32 values): the additions are
// counted per line.
extern "C" __global__ void scan32(const float *in, float *out)
{
    __shared__ float s[32];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    _Pragma("unroll 1") for (int off = 1; off < 32; off *= 2) {
        float v = s[t];
        if (t >= off)
            v += s[t - off];
        __syncthreads();
        s[t] = v;
        __syncthreads();
    }
    out[t] = s[t];
}
