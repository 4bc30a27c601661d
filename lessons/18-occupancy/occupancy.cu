// Lesson 18: occupancy. The same kind of work launched with different block sizes,
// shared memory and registers per thread; the Result line "occupancy: ..% theoretical
// (limit: ..)" says how many warps an SM can hold and what stops it holding more.

// 1. y = a x + y, one element per thread: registers and shared memory hardly matter,
// so the block size and the SM's limits on threads and blocks decide the occupancy.
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

// 2. Each block stages a segment of SEG floats (48 KiB, the most static shared memory a
// block may declare) and writes it back reversed. The SM's shared memory, not its
// threads, limits how many such blocks it holds.
#define SEG 12288
extern "C" __global__ void reverse_static(const float *x, float *y, int n)
{
    __shared__ float seg[SEG];
    int base = blockIdx.x * SEG;
    for (int i = threadIdx.x; i < SEG; i += blockDim.x)
        seg[i] = base + i < n ? x[base + i] : 0.0f;
    __syncthreads();
    for (int i = threadIdx.x; i < SEG; i += blockDim.x)
        if (base + i < n)
            y[base + i] = seg[SEG - 1 - i];
}

// The same with the segment in dynamic shared memory (its size is the launch's
// dynamic_shared_bytes): past 48 KiB a kernel must opt in
// (cudaFuncAttributeMaxDynamicSharedMemorySize), which gpulearn does for you.
extern "C" __global__ void reverse_dynamic(const float *x, float *y, int n, int seg_len)
{
    extern __shared__ float dseg[];
    int base = blockIdx.x * seg_len;
    for (int i = threadIdx.x; i < seg_len; i += blockDim.x)
        dseg[i] = base + i < n ? x[base + i] : 0.0f;
    __syncthreads();
    for (int i = threadIdx.x; i < seg_len; i += blockDim.x)
        if (base + i < n)
            y[base + i] = dseg[seg_len - 1 - i];
}

// 3. Register pressure: each thread keeps R running sums live at once (the unrolled loop
// keeps acc[] in registers), so the compiler needs more than R registers per thread.
#define R 48
extern "C" __global__ void many_sums(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc[R];
#pragma unroll
    for (int r = 0; r < R; r++)
        acc[r] = x[(i + r) % n];
    for (int it = 0; it < 8; it++) {
#pragma unroll
        for (int r = 0; r < R; r++)
            acc[r] = 0.5f * acc[r] + 0.25f * acc[(r + 1) % R];
    }
    float s = 0.0f;
#pragma unroll
    for (int r = 0; r < R; r++)
        s += acc[r];
    y[i] = s;
}
