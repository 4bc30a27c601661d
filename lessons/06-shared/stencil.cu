// 1D stencil of radius 3: out[i] = in[i-3] + ... + in[i+3] (missing neighbours are 0).
#define R 3
#define B 64

// Every thread reads its 7 inputs from global memory: each input is read 7 times.
extern "C" __global__ void stencil_global(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int s = 0;
    for (int k = -R; k <= R; k++)
        if (i + k >= 0 && i + k < n)
            s += in[i + k];
    out[i] = s;
}

// The block loads its B inputs plus R on each side (the halo) once into shared memory.
extern "C" __global__ void stencil_shared(const int *in, int *out, int n)
{
    __shared__ int tile[B + 2 * R];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int t = threadIdx.x + R;
    tile[t] = i < n ? in[i] : 0;
    if (threadIdx.x < R) {
        int l = i - R, r = i + B;
        tile[t - R] = l >= 0 && l < n ? in[l] : 0;
        tile[t + B] = r < n ? in[r] : 0;
    }
    __syncthreads();
    if (i < n) {
        int s = 0;
        for (int k = -R; k <= R; k++)
            s += tile[t + k];
        out[i] = s;
    }
}
