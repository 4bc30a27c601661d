/* my own work!! */
__device__ int reduce_w(int x) {
  for (int o = warpSize / 2; o > 0; o /= 2) x += __shfl_down_sync(0xFFFFFFFFu, x, o);
  return x;
}
__device__ int get(const int *p, int k, int count) { return k < count ? p[k] : 0; }
extern "C" __global__ void block_sum(const int *a, int *out, int count) {
  __shared__ int partials[8];   // one per warp
  int l = threadIdx.x % warpSize, w = threadIdx.x / warpSize;
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int x = reduce_w(get(a, k, count));
  if (l == 0) partials[w] = x;
  __syncthreads();
  if (w == 0) {
    x = l < blockDim.x / warpSize ? partials[l] : 0;
    x = reduce_w(x);
    if (l == 0) out[blockIdx.x] = x;
  }
}
