// Sums x[i - 4 .. i] only: the loop stops at the middle of the window.
#define R 4
#define SEG 8192
#define T 256

extern "C" __global__ void moving_sum(const float *x, float *y, int n)
{
    __shared__ float tile[T + 2 * R];
    int t = threadIdx.x;
    for (int c = blockIdx.x * SEG; c < (blockIdx.x + 1) * SEG && c < n; c += T) {
        int g = c - R + t;
        tile[t] = g >= 0 && g < n ? x[g] : 0.0f;
        if (t < 2 * R) {
            int h = c - R + T + t;
            tile[T + t] = h < n ? x[h] : 0.0f;
        }
        __syncthreads(); // the tile and its halo are in
        if (c + t < n) {
            float s = 0.0f;
            for (int j = 0; j <= R; j++)
                s += tile[t + j];
            y[c + t] = s;
        }
        __syncthreads(); // every thread is done with the tile before the next overwrites it
    }
}
