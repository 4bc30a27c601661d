// Tiles of half the segment (4096 + 2R floats, 16416 bytes): just over 16 KiB, so three
// blocks fit in an sm_75 SM's 64 KiB, not four: 75%.
#define R 4
#define SEG 8192
#define T 4096

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
                for (int j = 0; j <= 2 * R; j++)
                    s += tile[i + j];
                y[c + i] = s;
            }
        __syncthreads();
    }
}
