// Every atomic operation, on global memory and on shared memory; each thread applies
// its operand; results are the final values (order-independent) and, for atomicInc/
// atomicDec/atomicCAS/atomicExch, counts that do not depend on the order either.
extern "C" __global__ void atomics(int *gi, unsigned *gu, unsigned long long *gull,
                                   float *gf, double *gd, int *shared_out)
{
    __shared__ int si[8];
    __shared__ unsigned long long sll;
    int t = threadIdx.x;
    if (t < 8)
        si[t] = t == 1 ? 1000 : t == 2 ? -1000 : t == 3 ? -1 : 0;
    if (t == 0)
        sll = 0;
    __syncthreads();
    atomicAdd(&gi[0], t);
    atomicSub(&gi[1], t);
    atomicMin(&gi[2], 50 - t);
    atomicMax(&gi[3], t - 50);
    atomicAnd(&gi[4], ~(1 << (t % 31)));
    atomicOr(&gi[5], 1 << (t % 31));
    atomicXor(&gi[6], t);
    if (atomicCAS(&gi[7], 0, t + 1) == 0)
        atomicAdd(&gi[8], 1); // exactly one thread wins
    atomicExch(&gi[9], 7);
    atomicInc(&gu[0], 9u);    // wraps at 9: final = n mod 10
    atomicDec(&gu[1], 9u);    // from 0: wraps to 9, then counts down
    atomicMin(&gu[2], 100u + t);
    atomicMax(&gu[3], 100u + t);
    atomicAdd(&gu[4], 3u);
    atomicAdd(&gull[0], 1ull << 33);
    atomicMin(&gull[1], 1000ull + t);
    atomicMax(&gull[2], 1ull << 40 | t);
    atomicAnd(&gull[3], ~(1ull << (t % 63)));
    atomicOr(&gull[4], 1ull << (t % 63));
    atomicXor(&gull[5], 1ull << 40);
    atomicCAS(&gull[6], 0ull, 5ull);
    atomicExch(&gull[7], 9ull);
    atomicAdd(&gf[0], 0.5f);
    atomicExch(&gf[1], 2.5f);
    atomicAdd(&gd[0], 0.25);
    // shared memory
    atomicAdd(&si[0], t);
    atomicMin(&si[1], t);
    atomicMax(&si[2], t);
    atomicAnd(&si[3], ~(1 << (t % 31)));
    atomicOr(&si[4], 1 << (t % 31));
    atomicXor(&si[5], t);
    atomicCAS(&si[6], 0, 1);
    atomicExch(&si[7], 3);
    atomicAdd(&sll, 1ull << 32);
    __syncthreads();
    if (t < 8)
        shared_out[t] = si[t];
    if (t == 0)
        shared_out[8] = (int)(sll >> 32);
}
