// Puzzle "1D convolution": out[i] = sum_j a[i+j] * k[j], input tile plus right halo and kernel in shared memory, several blocks.
#define TPB 16
#define MAXK 5
extern "C" __global__ void pz_conv1d(const int *a, const int *k, int *out, int size, int ksize)
{
    __shared__ int sa[TPB + MAXK - 1];
    __shared__ int sk[MAXK];
    int i = blockIdx.x * blockDim.x + threadIdx.x, t = threadIdx.x;
    sa[t] = i < size ? a[i] : 0;
    if (t < ksize - 1)
        sa[TPB + t] = i + TPB < size ? a[i + TPB] : 0;
    if (t < ksize)
        sk[t] = k[t];
    __syncthreads();
    if (i < size) {
        int s = 0;
        for (int j = 0; j < ksize; ++j)
            s += sa[t + j] * sk[j];
        out[i] = s;
    }
}
