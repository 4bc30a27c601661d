// libc_headers.cu — the C library headers kernels commonly include compile with every
// compiler: NVRTC has none (gpulearn gives it runtime/prelude/nvrtc/), clang uses the
// host's (and the prelude's assert.h). Fixed-width types and limits, float limits, math
// constants, printf and a passing assert.
#include <stdio.h>
#include <cstdint>
#include <climits>
#include <cfloat>
#include <cmath>
#include <cassert>
#include <string.h>
#include <stdlib.h>

extern "C" __global__ void libc_headers(const int32_t *in, uint64_t *u, float *f)
{
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t big = INT64_MAX - in[t];
    u[t] = (uint64_t)big + (uint64_t)(t & 1 ? UINT32_MAX : (uint32_t)INT_MIN) +
           (uint64_t)(CHAR_BIT * SHRT_MAX) + UINT8_MAX;
    f[t] = in[t] * FLT_EPSILON * 1e6f + (float)M_PI * (t % 3) + (float)M_SQRT2 +
           (isinf(INFINITY) ? 1.0f : 0.0f) + (isnan(NAN) ? 2.0f : 0.0f) + (FLT_MAX > 1e38f);
    assert(u[t] != 0);
    if (t == 5)
        printf("t=%u in=%d INT16_MIN=%d\n", t, in[t], INT16_MIN);
}
