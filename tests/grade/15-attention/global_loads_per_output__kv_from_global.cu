// Wrong for this exercise: right values, but every thread reads all of K and V from global
// memory itself (no shared-memory tiles): 2 n + 1 global loads per output element, where
// tiles shared by the block's 64 rows need n / 16 + 1.
#define D 32
#define SCALE 0.17677669529663688f

extern "C" __global__ void flash_attention(const float *Q, const float *K, const float *V,
                                           float *O, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float q[D], o[D];
    for (int k = 0; k < D; k++) {
        q[k] = Q[i * D + k] * SCALE;
        o[k] = 0.0f;
    }
    float m = -INFINITY, l = 0.0f;
    for (int j = 0; j < n; j++) {
        float s = 0.0f;
        for (int k = 0; k < D; k++)
            s += q[k] * K[j * D + k];
        float mt = fmaxf(m, s), alpha = expf(m - mt), p = expf(s - mt);
        l = l * alpha + p;
        for (int k = 0; k < D; k++)
            o[k] = o[k] * alpha + p * V[j * D + k];
        m = mt;
    }
    for (int k = 0; k < D; k++)
        O[i * D + k] = o[k] / l;
}
