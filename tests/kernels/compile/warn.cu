// Compiles, with one warning every compiler gives by default: a shift wider than int.
// tests/test_compile.c expects it in the log (not as an error) on the marked line.
extern "C" __global__ void shifty(int *out)
{
    int x = threadIdx.x;
    out[x] = x << 40; // expect: warning
}
