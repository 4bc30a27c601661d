// Softmax of each row of a rows x cols matrix: y[r][j] = exp(x[r][j]) / sum_k exp(x[r][k]).
// One block of B threads per row; thread t handles columns t, t + B, t + 2B, ...
// The block reductions are lesson 9's: a warp combines its 32 values with shuffles, lane 0
// of each warp stores the warp's result in shared memory, and after a barrier every
// thread combines the B / 32 warp results.
#define B 128
#define WARPS (B / 32)
#define FULL 0xffffffffu

__device__ float warp_max(float v)
{
    for (int off = 16; off > 0; off >>= 1)
        v = fmaxf(v, __shfl_xor_sync(FULL, v, off));
    return v;
}

__device__ float warp_sum(float v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(FULL, v, off);
    return v;
}

// Every thread of the block gets the block's maximum of v.
__device__ float block_max(float v)
{
    __shared__ float s[WARPS];
    v = warp_max(v);
    if (threadIdx.x % 32 == 0)
        s[threadIdx.x / 32] = v;
    __syncthreads();
    v = s[0];
    for (int w = 1; w < WARPS; w++)
        v = fmaxf(v, s[w]);
    __syncthreads(); // s is free again for the next reduction
    return v;
}

// Every thread of the block gets the block's sum of v.
__device__ float block_sum(float v)
{
    __shared__ float s[WARPS];
    v = warp_sum(v);
    if (threadIdx.x % 32 == 0)
        s[threadIdx.x / 32] = v;
    __syncthreads();
    v = 0.0f;
    for (int w = 0; w < WARPS; w++)
        v += s[w];
    __syncthreads();
    return v;
}

// 1. Naive: exp(x) overflows to inf once x > 88.7 (FLT_MAX = 3.4e38 = e^88.7), and then
// inf / inf is NaN and every other element of the row becomes x / inf = 0.
extern "C" __global__ void softmax_naive(const float *x, float *y, int rows, int cols)
{
    const float *row = x + (size_t)blockIdx.x * cols;
    float d = 0.0f;
    for (int j = threadIdx.x; j < cols; j += B)
        d += expf(row[j]);
    d = block_sum(d);
    for (int j = threadIdx.x; j < cols; j += B)
        y[(size_t)blockIdx.x * cols + j] = expf(row[j]) / d;
}

// 2. Safe: softmax(x) = softmax(x - m) for any m; with m = max(x) every exponent is <= 0,
// so exp never overflows and the largest term is exactly 1. Three passes over the row:
// the maximum, the sum of exp(x - m), the outputs.
extern "C" __global__ void softmax_safe(const float *x, float *y, int rows, int cols)
{
    const float *row = x + (size_t)blockIdx.x * cols;
    float m = -INFINITY;
    for (int j = threadIdx.x; j < cols; j += B)
        m = fmaxf(m, row[j]);
    m = block_max(m);
    float d = 0.0f;
    for (int j = threadIdx.x; j < cols; j += B)
        d += expf(row[j] - m);
    d = block_sum(d);
    for (int j = threadIdx.x; j < cols; j += B)
        y[(size_t)blockIdx.x * cols + j] = expf(row[j] - m) / d;
}

// (m, d) is a running maximum m and the sum d of exp(x - m) over the values seen so far.
// Merging (m2, d2) into it rescales both sums to the new maximum (Milakov & Gimelshein
// 2018, "Online normalizer calculation for softmax", algorithm 3). An empty pair is
// (-inf, 0); merging two of them keeps it empty (exp(-inf - -inf) would be NaN).
__device__ void md_merge(float &m, float &d, float m2, float d2)
{
    float mn = fmaxf(m, m2);
    if (mn == -INFINITY)
        return;
    d = d * expf(m - mn) + d2 * expf(m2 - mn);
    m = mn;
}

// 3. Online: one pass computes m and d together. A new element x is the pair (x, 1);
// the warp and block reductions merge pairs instead of adding numbers.
extern "C" __global__ void softmax_online(const float *x, float *y, int rows, int cols)
{
    __shared__ float sm[WARPS], sd[WARPS];
    const float *row = x + (size_t)blockIdx.x * cols;
    float m = -INFINITY, d = 0.0f;
    for (int j = threadIdx.x; j < cols; j += B)
        md_merge(m, d, row[j], 1.0f);
    for (int off = 16; off > 0; off >>= 1)
        md_merge(m, d, __shfl_xor_sync(FULL, m, off), __shfl_xor_sync(FULL, d, off));
    if (threadIdx.x % 32 == 0) {
        sm[threadIdx.x / 32] = m;
        sd[threadIdx.x / 32] = d;
    }
    __syncthreads();
    m = sm[0];
    d = sd[0];
    for (int w = 1; w < WARPS; w++)
        md_merge(m, d, sm[w], sd[w]);
    for (int j = threadIdx.x; j < cols; j += B)
        y[(size_t)blockIdx.x * cols + j] = expf(row[j] - m) / d;
}
