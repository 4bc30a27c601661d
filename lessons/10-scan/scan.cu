// Prefix sums of each block's 64 elements (GPU Gems 3, ch. 39, "Parallel Prefix Sum
// (Scan) with CUDA"; PMPP ch. 11).
#define B 64

// Hillis-Steele inclusive scan: log2(B) steps, each adding the element d places left.
// Double-buffered: each step reads one array and writes the other.
extern "C" __global__ void scan_hillis_steele(const int *in, int *out)
{
    __shared__ int buf[2][B];
    int t = threadIdx.x, base = blockIdx.x * B;
    int src = 0;
    buf[0][t] = in[base + t];
    __syncthreads();
    for (int d = 1; d < B; d *= 2) {
        buf[1 - src][t] = t >= d ? buf[src][t] + buf[src][t - d] : buf[src][t];
        src = 1 - src;
        __syncthreads();
    }
    out[base + t] = buf[src][t];
}

// Blelloch exclusive scan: an up-sweep builds partial sums in a tree, a down-sweep
// pushes prefixes back down. 2 (B - 1) additions instead of about B log2 B.
extern "C" __global__ void scan_blelloch(const int *in, int *out)
{
    __shared__ int s[B];
    int t = threadIdx.x, base = blockIdx.x * B;
    s[t] = in[base + t];
    __syncthreads();
    for (int d = 1; d < B; d *= 2) { // up-sweep
        int k = (t + 1) * 2 * d - 1;
        if (k < B)
            s[k] += s[k - d];
        __syncthreads();
    }
    if (t == 0)
        s[B - 1] = 0;
    __syncthreads();
    for (int d = B / 2; d >= 1; d /= 2) { // down-sweep
        int k = (t + 1) * 2 * d - 1;
        if (k < B) {
            int left = s[k - d];
            s[k - d] = s[k];
            s[k] += left;
        }
        __syncthreads();
    }
    out[base + t] = s[t];
}

// Warp scan with __shfl_up_sync: lane i adds the value from lane i - d.
extern "C" __global__ void scan_warp(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int v = in[i];
    for (int d = 1; d < 32; d *= 2) {
        int u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d)
            v += u;
    }
    out[i] = v;
}
