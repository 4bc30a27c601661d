// printf from one warp with many conversions: d i u x X o c s f e E g G, l/ll/h lengths (no hh: CUDA's device printf has sizes h, l, ll only), width, precision, flags - + space 0 #, %%.
extern "C" __global__ void printf_formats(const int *a, const double *d)
{
    int t = threadIdx.x;
    if (t >= 12)
        return;
    int v = a[t];
    double x = d[t];
    printf("%2d|%d|%i|%u|%x|%X|%o|%#o|%#X|%c|%-6d|%+d|% d|%08d|%.3d|%%\n", t, v, -v, (unsigned)v, v, v, v & 0777,
           v & 0777, v, 'A' + t, v % 1000, v % 100, v % 50, v % 7777, t);
    printf("%ld %lld %llu %hd %d %lx %5.2s|%-4s|%s\n", (long)v * 100000L, (long long)v * -3000000000LL,
           (unsigned long long)v * 4000000000ull, (short)v, (int)(char)v, (long)v, "abcdef", t % 2 ? "odd" : "ev", "end");
    printf("%f %.0f %10.4f %-12.2f| %e %.2E %g %G %.3g %#g %+.1e %08.3f\n", x, x, x, x, x, x, x, x * 1e9, x * 1e-7,
           x, -x, x / 1000.0);
}
