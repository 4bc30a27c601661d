#include <cstdio>
#include <cassert>
extern "C" __global__ void oob(int *x) { x[threadIdx.x + 100] = 1; }
extern "C" __global__ void misaligned(int *x) { *(int *)((char *)x + 2) = 1; }
extern "C" __global__ void endless(volatile int *x) { while (x[0] == 0) ; }
extern "C" __global__ void deadlock(int *x) { if (threadIdx.x < 32) __syncthreads(); else while (((volatile int *)x)[0] == 0) ; }
extern "C" __global__ void trap(int *x) { if (threadIdx.x == 3) __trap(); x[threadIdx.x] = 1; }
extern "C" __global__ void race(int *x) { __shared__ int s[64]; s[threadIdx.x] = threadIdx.x; x[threadIdx.x] = s[63 - threadIdx.x]; }
extern "C" __global__ void grace(int *x) { x[0] += 1; }
extern "C" __global__ void nullptr_store(int *x) { int *p = 0; if (x[0] == 0) *p = 1; }
extern "C" __global__ void assert_fail(int *x) { assert(x[threadIdx.x] != 0); }
extern "C" __global__ void flood(int *x) { for (int i = 0; i < 1000; i++) printf("%d %d %d %d %d %d %d %d\n", i, i, i, i, i, i, i, i); }
extern "C" __global__ void uninit(int *x) { __shared__ int s[64]; if (x[0] == 12345) s[0] = 1; __syncthreads(); x[threadIdx.x] = s[threadIdx.x]; }
extern "C" __global__ void local_overrun(int *x) { int a[4]; for (int i = 0; i < 4; i++) a[i] = i; x[threadIdx.x] = a[threadIdx.x + x[0] + 8]; }
extern "C" __global__ void shared_overrun(int *x) { __shared__ int s[16]; s[threadIdx.x + x[0]] = 1; __syncthreads(); x[threadIdx.x] = s[threadIdx.x % 16]; }
extern "C" __global__ void negative_index(int *x) { x[(int)threadIdx.x - 1] = 1; }
extern "C" __global__ void divzero(int *x) { x[threadIdx.x] = 7 / x[threadIdx.x]; }
extern "C" __global__ void shfl_partial(int *x) { if (threadIdx.x < 16) x[threadIdx.x] = __shfl_sync(0xffffffffu, x[threadIdx.x], 0); }
extern "C" __global__ void counting(volatile int *x) { unsigned i = 0; while (x[0] == 0) i++; x[1] = i; }
extern "C" __global__ void long_grid(int *x) { if (threadIdx.x == 1000) x[0] = 1; }
extern "C" __global__ void busy_loop(volatile int *x) { while (x[0] == 0) x[1 + threadIdx.x % 8] += 1; }
