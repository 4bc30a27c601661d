// Recursive noinline device functions: factorial (unsigned long long), Fibonacci (two calls), and a recursive sum over a local array.
__device__ __attribute__((noinline)) unsigned long long fact(unsigned n)
{
    return n <= 1 ? 1ull : n * fact(n - 1);
}
__device__ __attribute__((noinline)) int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
__device__ __attribute__((noinline)) int rsum(const int *v, int n)
{
    return n == 0 ? 0 : v[n - 1] * n + rsum(v, n - 1);
}
extern "C" __global__ void recursion(unsigned long long *f, int *fb, int *rs)
{
    int t = threadIdx.x;
    int loc[12];
    for (int k = 0; k < 12; ++k)
        loc[k] = (t * 7 + k * 13) % 19 - 9;
    f[t] = fact(t);
    fb[t] = fib(t % 17);
    rs[t] = rsum(loc, t % 13);
}
