// Shared-memory atomics for every op (add/sub/min/max/inc/dec/and/or/xor/cas/exch on int and unsigned); results copied out.
extern "C" __global__ void atomics_shared_all(const int *in, int *out, int n)
{
    __shared__ int si[8];
    __shared__ unsigned su[4];
    __shared__ int slots[128];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (t < 8) si[t] = t * 1000 - 3000;
    if (t < 4) su[t] = 7u * t;
    slots[t] = t;
    __syncthreads();
    int v = i < n ? in[i] : 0;
    atomicAdd(&si[0], v);
    atomicSub(&si[1], v);
    atomicMin(&si[2], v);
    atomicMax(&si[3], v);
    atomicAnd(&si[4], v | 0x0f0f0f0f);
    atomicOr(&si[5], v & 0x00ff00ff);
    atomicXor(&si[6], v);
    atomicCAS(&si[7], 4000, 4001);
    atomicInc(&su[0], 9u);
    atomicDec(&su[1], 50u);
    atomicMin(&su[2], (unsigned)v);
    atomicMax(&su[3], (unsigned)v);
    int old = atomicExch(&slots[(t + 5) % blockDim.x], v);
    __syncthreads();
    if (t < 8) out[blockIdx.x * 140 + t] = si[t];
    if (t < 4) out[blockIdx.x * 140 + 8 + t] = (int)su[t];
    out[blockIdx.x * 140 + 12 + t] = slots[t] + old;
}
