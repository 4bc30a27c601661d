// Right: tiles of 512 outputs (2 per thread) plus the halo, 2080 bytes: four blocks of 256
// threads still fit an sm_75 SM (limit: threads).
#define R 4
#define SEG 8192
#define T 512

extern "C" __global__ void moving_sum(const float *x, float *y, int n)
{
    __shared__ float tile[T + 2 * R];
    int base = blockIdx.x * SEG;
    for (int c = base; c < base + SEG && c < n; c += T) {
        for (int i = threadIdx.x; i < T + 2 * R; i += blockDim.x) {
            int g = c - R + i;
            tile[i] = g >= 0 && g < n ? x[g] : 0.0f;
        }
        __syncthreads();
        for (int i = threadIdx.x; i < T; i += blockDim.x)
            if (c + i < n) {
                float s = 0.0f;
                for (int j = -R; j <= R; j++)
                    s += tile[i + R + j];
                y[c + i] = s;
            }
        __syncthreads();
    }
}
