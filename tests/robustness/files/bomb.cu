#define A(x) x+x+x+x+x+x+x+x+x+x
#define B(x) A(A(A(A(A(A(A(A(x))))))))
extern "C" __global__ void k(int *out, int mode) { out[0] = B(1); }
