// A kernel with one error: `y` is not declared. tests/test_compile.c expects every
// compiler to report it on the line whose comment says so.
extern "C" __global__ void broken(int *out)
{
    int x = threadIdx.x;
    out[x] = y + 1; // expect: error
}
