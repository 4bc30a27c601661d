// vector_types_all.cu — the headers at the top of most .cu files and every built-in
// vector type (CUDA Programming Guide §7.3.1) with its make_ function, size and
// alignment, with every compiler: clang without a Toolkit gets them from gpulearn's
// prelude. An RGBA-to-grey kernel as learners write it (uchar4 pixels), a float3 and a
// double2 computation, and sizeof/alignof of each type, which must match the GPU's.
#include <cuda_runtime.h>
#include <device_launch_parameters.h>
#include <math_constants.h>

#define SIZES(T) (int)sizeof(T##1), (int)alignof(T##1), (int)sizeof(T##2), (int)alignof(T##2), \
                 (int)sizeof(T##3), (int)alignof(T##3), (int)sizeof(T##4), (int)alignof(T##4)

__constant__ int layout[96] = {SIZES(char), SIZES(uchar), SIZES(short), SIZES(ushort),
                               SIZES(int), SIZES(uint), SIZES(long), SIZES(ulong),
                               SIZES(longlong), SIZES(ulonglong), SIZES(float), SIZES(double)};

extern "C" __global__ void vector_types_all(const uchar4 *rgba, unsigned char *grey, float *f,
                                            double *d, int *sizes)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const uchar4 p = rgba[t];
    grey[t] = (unsigned char)(0.299f * p.x + 0.587f * p.y + 0.114f * p.z);
    const float3 a = make_float3(p.x, p.y, p.z);
    const float3 b = make_float3(1.0f, -2.0f, 0.5f);
    const char2 c = make_char2((signed char)(p.w - 128), (signed char)-t);
    const short4 s = make_short4(c.x, c.y, (short)(p.x * 3), (short)-p.y);
    const longlong2 q = make_longlong2(1ll << (t % 40), -s.z);
    const uint3 u = make_uint3(threadIdx.x, blockIdx.x, blockDim.x);
    f[t] = a.x * b.x + a.y * b.y + a.z * b.z + CUDART_PI_F * c.x + s.w + (float)(u.x + u.y * u.z);
    const double2 v = make_double2(q.x * CUDART_SQRT_HALF, (double)q.y + CUDART_LN2);
    d[t] = v.x + v.y * CUDART_THIRD + (t == 3 ? CUDART_INF : 0.0) + (t == 4 ? CUDART_NAN : 0.0);
    if (t < 96)
        sizes[t] = layout[t];
}
