// bench/programs.c's copy program: cudaMemcpy of 256 MiB host to device and back against
// a host memcpy of the same bytes, timed by the program itself (CLOCK_MONOTONIC), after
// one untimed round that maps every page. Prints "host_ms H h2d_ms A d2h_ms B" a round.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv)
{
    const size_t n = (size_t)256 << 20;
    const int rounds = argc > 1 ? atoi(argv[1]) : 3;
    char *a = (char *)malloc(n), *b = (char *)malloc(n), *d;
    if (!a || !b || cudaMalloc(&d, n) != cudaSuccess)
        return 2;
    memset(a, 1, n);
    memset(b, 2, n);
    for (int r = 0; r <= rounds; r++) {
        double t0 = now_ms();
        memcpy(b, a, n);
        double t1 = now_ms();
        cudaError_t e1 = cudaMemcpy(d, a, n, cudaMemcpyHostToDevice);
        double t2 = now_ms();
        cudaError_t e2 = cudaMemcpy(b, d, n, cudaMemcpyDeviceToHost);
        double t3 = now_ms();
        if (e1 != cudaSuccess || e2 != cudaSuccess || b[n - 1] != 1)
            return 1;
        if (r > 0) /* round 0 maps the pages */
            printf("host_ms %.3f h2d_ms %.3f d2h_ms %.3f\n", t1 - t0, t2 - t1, t3 - t2);
    }
    cudaFree(d);
    free(a);
    free(b);
    return 0;
}
