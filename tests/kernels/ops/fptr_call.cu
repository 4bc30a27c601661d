// Indirect calls (PTX ISA §9.7.12.5 call through a register, with a .callprototype):
// device functions called through a table of function pointers in __device__ memory
// (mutable, so no compiler can resolve the calls) and through a pointer a thread picks
// itself (a divergent call: lanes of one warp call different functions).
// out[t] = table[t % 3](in[t], t) + (in[t] odd ? twice(t) : negate(t)).
__device__ __attribute__((noinline)) int add_op(int a, int b) { return a + b; }
__device__ __attribute__((noinline)) int mul_op(int a, int b) { return a * b; }
__device__ __attribute__((noinline)) int sub_op(int a, int b) { return a - b; }
__device__ __attribute__((noinline)) int twice(int a) { return 2 * a; }
__device__ __attribute__((noinline)) int negate(int a) { return -a; }

typedef int (*binop)(int, int);
__device__ binop table[3] = {add_op, mul_op, sub_op};

extern "C" __global__ void fptr_call(const int *in, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int (*pick)(int) = (in[t] & 1) ? twice : negate;
    out[t] = table[t % 3](in[t], t) + pick(t);
}
