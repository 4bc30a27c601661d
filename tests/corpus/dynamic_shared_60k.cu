// 60 KiB of dynamic shared memory: over the default 48 KiB per block, which every GPU
// since Volta allows once the kernel opts in (gpulearn opts in for the launch). Each of
// 256 threads fills 60 floats of the 15360, then reads back another thread's part.
extern "C" __global__ void big_shared(int *out)
{
    extern __shared__ int s[];
    const int t = threadIdx.x, per = 60;
    for (int k = 0; k < per; k++)
        s[t * per + k] = t * 1000 + k;
    __syncthreads();
    const int o = (t + 37) % blockDim.x;
    int sum = 0;
    for (int k = 0; k < per; k++)
        sum += s[o * per + k];
    out[blockIdx.x * blockDim.x + t] = sum;
}
