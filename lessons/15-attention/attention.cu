// Attention for one head: O = softmax(Q K^T / sqrt(D)) V, where Q, K and V are n x D
// matrices (row-major, one row per token) and the softmax is taken along each row.
#define D 32
#define B 128
#define WARPS (B / 32)
#define FULL 0xffffffffu
#define SCALE 0.17677669529663688f // 1 / sqrt(D)

__device__ float block_max(float v)
{
    __shared__ float s[WARPS];
    for (int off = 16; off > 0; off >>= 1)
        v = fmaxf(v, __shfl_xor_sync(FULL, v, off));
    if (threadIdx.x % 32 == 0)
        s[threadIdx.x / 32] = v;
    __syncthreads();
    v = s[0];
    for (int w = 1; w < WARPS; w++)
        v = fmaxf(v, s[w]);
    __syncthreads();
    return v;
}

__device__ float block_sum(float v)
{
    __shared__ float s[WARPS];
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(FULL, v, off);
    if (threadIdx.x % 32 == 0)
        s[threadIdx.x / 32] = v;
    __syncthreads();
    v = 0.0f;
    for (int w = 0; w < WARPS; w++)
        v += s[w];
    __syncthreads();
    return v;
}

// 1. The textbook order: S = Q K^T / sqrt(D), P = softmax(S) row by row, O = P V. Usually
// three kernels; here three phases of one block per query row i, which like the three
// kernels write all of S (n x n floats) to global memory and read it back.
extern "C" __global__ void attention_naive(const float *Q, const float *K, const float *V,
                                           float *S, float *O, int n)
{
    int i = blockIdx.x;
    float *srow = S + (size_t)i * n;
    for (int j = threadIdx.x; j < n; j += B) { // S[i][j] = q_i . k_j / sqrt(D)
        float acc = 0.0f;
        for (int k = 0; k < D; k++)
            acc += Q[i * D + k] * K[j * D + k];
        srow[j] = acc * SCALE;
    }
    float m = -INFINITY; // the safe softmax of lesson 14, in place
    for (int j = threadIdx.x; j < n; j += B)
        m = fmaxf(m, srow[j]);
    m = block_max(m);
    float l = 0.0f;
    for (int j = threadIdx.x; j < n; j += B)
        l += expf(srow[j] - m);
    l = block_sum(l);
    for (int j = threadIdx.x; j < n; j += B)
        srow[j] = expf(srow[j] - m) / l;
    __syncthreads(); // the row of P is written by every thread and read by the first D
    if (threadIdx.x < D) { // O[i][k] = sum_j P[i][j] V[j][k]
        float acc = 0.0f;
        for (int j = 0; j < n; j++)
            acc += srow[j] * V[j * D + threadIdx.x];
        O[i * D + threadIdx.x] = acc;
    }
}

#define BR 64 // query rows per block: one thread each
#define BC 32 // keys per tile of K and V in shared memory

// 2. Fused, FlashAttention-style (Dao et al. 2022, "FlashAttention: Fast and
// Memory-Efficient Exact Attention with IO-Awareness", algorithm 1): thread i keeps its
// query row q and an output accumulator o in registers, and the block walks over K and V
// one tile of BC rows at a time, staged in shared memory and read by all BR threads.
// Per tile: the scores s_c = q . k_c / sqrt(D), the new running maximum m', then
// l = l e^(m - m') + sum_c e^(s_c - m') and o = o e^(m - m') + sum_c e^(s_c - m') v_c:
// lesson 14's online softmax, with o rescaled like the sum. S never exists in memory.
extern "C" __global__ void flash_attention(const float *Q, const float *K, const float *V,
                                           float *O, int n)
{
    __shared__ float Ks[BC][D], Vs[BC][D];
    int i = blockIdx.x * BR + threadIdx.x;
    float q[D], o[D];
    for (int k = 0; k < D; k++) {
        q[k] = i < n ? Q[i * D + k] * SCALE : 0.0f;
        o[k] = 0.0f;
    }
    float m = -INFINITY, l = 0.0f;
    for (int j0 = 0; j0 < n; j0 += BC) {
        for (int e = threadIdx.x; e < BC * D; e += BR) { // rows past n are zeros
            int j = j0 + e / D;
            Ks[e / D][e % D] = j < n ? K[j * D + e % D] : 0.0f;
            Vs[e / D][e % D] = j < n ? V[j * D + e % D] : 0.0f;
        }
        __syncthreads();
        int nc = min(BC, n - j0);
        float s[BC], mt = m;
#pragma unroll
        for (int c = 0; c < BC; c++) {
            float acc = 0.0f;
            for (int k = 0; k < D; k++)
                acc += q[k] * Ks[c][k];
            s[c] = c < nc ? acc : -INFINITY;
            mt = fmaxf(mt, s[c]);
        }
        float alpha = expf(m - mt); // 0 on the first tile, where m = -inf
        l *= alpha;
        for (int k = 0; k < D; k++)
            o[k] *= alpha;
#pragma unroll
        for (int c = 0; c < BC; c++) {
            float p = expf(s[c] - mt); // 0 for the keys past n
            l += p;
            for (int k = 0; k < D; k++)
                o[k] += p * Vs[c][k];
        }
        m = mt;
        __syncthreads(); // the tile is read by every thread before the next overwrites it
    }
    if (i < n)
        for (int k = 0; k < D; k++)
            O[i * D + k] = o[k] / l;
}
