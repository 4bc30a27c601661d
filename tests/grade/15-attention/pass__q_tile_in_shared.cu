// Right: the block's Q tile also goes to shared memory (padded so that thread r reading
// row r of it hits bank (33 r + k) % 32: no conflicts), and the tiles of K and V are
// loaded with float4 copies.
#define D 32
#define SCALE 0.17677669529663688f
#define BR 64
#define BC 32

extern "C" __global__ void flash_attention(const float *Q, const float *K, const float *V,
                                           float *O, int n)
{
    __shared__ float Qs[BR][D + 1];
    __shared__ float4 Ks[BC][D / 4], Vs[BC][D / 4];
    int r = threadIdx.x, i = blockIdx.x * BR + r;
    for (int e = r; e < BR * D; e += BR) {
        int row = blockIdx.x * BR + e / D;
        Qs[e / D][e % D] = row < n ? Q[row * D + e % D] * SCALE : 0.0f;
    }
    float o[D];
    for (int k = 0; k < D; k++)
        o[k] = 0.0f;
    float m = -INFINITY, l = 0.0f;
    const float4 *K4 = (const float4 *)K, *V4 = (const float4 *)V;
    for (int j0 = 0; j0 < n; j0 += BC) {
        for (int e = r; e < BC * D / 4; e += BR) {
            int j = j0 + e / (D / 4);
            float4 z = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            Ks[e / (D / 4)][e % (D / 4)] = j < n ? K4[j0 * D / 4 + e] : z;
            Vs[e / (D / 4)][e % (D / 4)] = j < n ? V4[j0 * D / 4 + e] : z;
        }
        __syncthreads();
        float s[BC], mt = m;
        for (int c = 0; c < BC; c++) {
            float acc = 0.0f;
            for (int k = 0; k < D / 4; k++) {
                float4 kv = Ks[c][k];
                acc += Qs[r][4 * k] * kv.x + Qs[r][4 * k + 1] * kv.y +
                       Qs[r][4 * k + 2] * kv.z + Qs[r][4 * k + 3] * kv.w;
            }
            s[c] = j0 + c < n ? acc : -INFINITY;
            mt = fmaxf(mt, s[c]);
        }
        float alpha = expf(m - mt);
        l *= alpha;
        for (int k = 0; k < D; k++)
            o[k] *= alpha;
        for (int c = 0; c < BC; c++) {
            float p = expf(s[c] - mt);
            l += p;
            for (int k = 0; k < D / 4; k++) {
                float4 v = Vs[c][k];
                o[4 * k] += p * v.x;
                o[4 * k + 1] += p * v.y;
                o[4 * k + 2] += p * v.z;
                o[4 * k + 3] += p * v.w;
            }
        }
        m = mt;
        __syncthreads();
    }
    if (i < n)
        for (int k = 0; k < D; k++)
            O[i * D + k] = o[k] / l;
}
