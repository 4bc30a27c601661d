// Wrong: the last tile's rows past n are skipped rather than stored as zeros, and the score
// loop still reads them (their scores are masked, but the loads read unwritten shared
// memory).
#define D 32
#define SCALE 0.17677669529663688f // 1 / sqrt(D)
#define BR 64 // query rows per block: one thread each
#define BC 32 // keys per tile of K and V in shared memory

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
            if (j < n) {
                Ks[e / D][e % D] = K[j * D + e % D];
                Vs[e / D][e % D] = V[j * D + e % D];
            }
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
