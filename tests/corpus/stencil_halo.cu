// 1D stencil of radius 3 with a shared-memory tile and halo; zero outside [0, n).
#define R 3
#define B 128
extern "C" __global__ void stencil_halo(const int *in, int *out, int n)
{
    __shared__ int tile[B + 2 * R];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + R;
    tile[l] = g < n ? in[g] : 0;
    if (threadIdx.x < R) {
        int left = g - R, right = g + B;
        tile[l - R] = left >= 0 && left < n ? in[left] : 0;
        tile[l + B] = right < n ? in[right] : 0;
    }
    __syncthreads();
    if (g < n) {
        int s = 0;
        for (int k = -R; k <= R; ++k)
            s += (k + 4) * tile[l + k];
        out[g] = s;
    }
}
