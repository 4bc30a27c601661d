// The classic sequence of block reductions (M. Harris, "Optimizing Parallel Reduction
// in CUDA", NVIDIA). Each block writes the sum of its elements to partial[blockIdx.x].
#define B 128

// 1. Interleaved addressing: divergent (only every 2s-th thread works).
extern "C" __global__ void reduce_interleaved(const int *in, int *partial, int n)
{
    __shared__ int s[B];
    int t = threadIdx.x, i = blockIdx.x * B + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int st = 1; st < B; st *= 2) {
        if (t % (2 * st) == 0)
            s[t] += s[t + st];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
}

// 2. Strided index: contiguous threads work, but index 2*st*t causes bank conflicts.
extern "C" __global__ void reduce_strided(const int *in, int *partial, int n)
{
    __shared__ int s[B];
    int t = threadIdx.x, i = blockIdx.x * B + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int st = 1; st < B; st *= 2) {
        int idx = 2 * st * t;
        if (idx < B)
            s[idx] += s[idx + st];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
}

// 3. Sequential addressing: thread t adds s[t + st], st halving: no conflicts.
extern "C" __global__ void reduce_sequential(const int *in, int *partial, int n)
{
    __shared__ int s[B];
    int t = threadIdx.x, i = blockIdx.x * B + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int st = B / 2; st > 0; st >>= 1) {
        if (t < st)
            s[t] += s[t + st];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
}

// 4. First add during load: each block reduces 2 * B elements.
extern "C" __global__ void reduce_load_add(const int *in, int *partial, int n)
{
    __shared__ int s[B];
    int t = threadIdx.x, i = blockIdx.x * 2 * B + t;
    s[t] = (i < n ? in[i] : 0) + (i + B < n ? in[i + B] : 0);
    __syncthreads();
    for (int st = B / 2; st > 0; st >>= 1) {
        if (t < st)
            s[t] += s[t + st];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
}

// 5. Warp shuffle: each warp reduces in registers, then warp 0 reduces the warp sums.
__device__ int warp_sum(int v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

extern "C" __global__ void reduce_shuffle(const int *in, int *partial, int n)
{
    __shared__ int warps[B / 32];
    int t = threadIdx.x, i = blockIdx.x * B + t;
    int v = warp_sum(i < n ? in[i] : 0);
    if (t % 32 == 0)
        warps[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        v = warp_sum(t < B / 32 ? warps[t] : 0);
        if (t == 0)
            partial[blockIdx.x] = v;
    }
}

// 6. Grid-stride: a fixed grid, each thread first sums many elements.
extern "C" __global__ void reduce_grid_stride(const int *in, int *partial, int n)
{
    __shared__ int warps[B / 32];
    int t = threadIdx.x, v = 0;
    for (int i = blockIdx.x * B + t; i < n; i += gridDim.x * B)
        v += in[i];
    v = warp_sum(v);
    if (t % 32 == 0)
        warps[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        v = warp_sum(t < B / 32 ? warps[t] : 0);
        if (t == 0)
            partial[blockIdx.x] = v;
    }
}

// 7. Vectorised loads: each thread reads 16 bytes (an int4) per load and keeps four
// loads in flight per iteration, so enough bytes are on their way to hide DRAM latency;
// each block adds its total to *sum with one atomicAdd (sum starts at 0).
extern "C" __global__ void reduce_vectorized(const int *in, int *sum, int n)
{
    __shared__ int warps[B / 32];
    const int4 *in4 = (const int4 *)in; // cudaMalloc'd buffers are 256-byte aligned
    int t = threadIdx.x, v = 0, n4 = n / 4;
    int i = blockIdx.x * 4 * B + t;
    for (; i + 3 * B < n4; i += gridDim.x * 4 * B) {
        int4 a = in4[i], b = in4[i + B], c = in4[i + 2 * B], d = in4[i + 3 * B];
        v += (a.x + a.y + a.z + a.w) + (b.x + b.y + b.z + b.w) + (c.x + c.y + c.z + c.w) +
             (d.x + d.y + d.z + d.w);
    }
    for (; i < n4; i += B) { // this thread's last group of four, cut short by n
        int4 a = in4[i];
        v += a.x + a.y + a.z + a.w;
    }
    for (int j = 4 * n4 + blockIdx.x * B + t; j < n; j += gridDim.x * B)
        v += in[j]; // the n % 4 last elements
    v = warp_sum(v);
    if (t % 32 == 0)
        warps[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        v = warp_sum(t < B / 32 ? warps[t] : 0);
        if (t == 0)
            atomicAdd(sum, v);
    }
}
