// Recursive device functions: a local-memory call stack per thread.
__device__ __attribute__((noinline)) unsigned long long factorial(int n)
{
    return n <= 1 ? 1ull : (unsigned long long)n * factorial(n - 1);
}

__device__ __attribute__((noinline)) int fib(int n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

extern "C" __global__ void recursion(unsigned long long *fact, int *fibs)
{
    int i = threadIdx.x;
    fact[i] = factorial(i);
    fibs[i] = fib(i % 16);
}
