// Right: the tiles come through shared memory as in the reference, but the online softmax
// runs key by key (Milakov & Gimelshein's recurrence applied to o as well), with no array
// of scores: one rescale per key instead of one per tile.
#define D 32
#define SCALE 0.17677669529663688f
#define BR 64
#define BC 32

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
        int nc = min(BC, n - j0);
        for (int e = threadIdx.x; e < nc * D; e += BR) {
            Ks[e / D][e % D] = K[j0 * D + e];
            Vs[e / D][e % D] = V[j0 * D + e];
        }
        __syncthreads();
        for (int c = 0; c < nc; c++) {
            float s = 0.0f;
            for (int k = 0; k < D; k++)
                s += q[k] * Ks[c][k];
            float mt = fmaxf(m, s), alpha = expf(m - mt), p = expf(s - mt);
            l = l * alpha + p;
            for (int k = 0; k < D; k++)
                o[k] = o[k] * alpha + p * Vs[c][k];
            m = mt;
        }
        __syncthreads();
    }
    if (i < n)
        for (int k = 0; k < D; k++)
            O[i * D + k] = o[k] / l;
}
