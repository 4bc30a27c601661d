// std_lib.cu — the C++ standard library kernels commonly use compiles with every
// compiler and gives the GPU's results: std::min/std::max (with an explicit type and a
// comparator), std::numeric_limits, the <cmath> functions in std:: and, after
// `using namespace std;`, unqualified. NVRTC has no standard library (gpulearn gives it
// runtime/prelude/nvrtc/), nvcc needs --expt-relaxed-constexpr for constexpr host
// functions in device code (gpulearn passes it), clang uses the host's headers.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

struct rec {
    int a;
    float b;
};

struct greater_abs {
    __device__ bool operator()(int x, int y) const { return std::abs(x) > std::abs(y); }
};

extern "C" __global__ void std_lib(const int32_t *in, const float *x, int32_t *iout, float *fout)
{
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    const int v = in[t], w = in[t ^ 1];
    const int lo = std::min(v, w), hi = std::max<int>(v, w);
    const int far = std::max(v, w, greater_abs()); /* the smaller |.| wins under "greater" */
    const int32_t imin = std::numeric_limits<int32_t>::min();
    const uint32_t umax = std::numeric_limits<unsigned>::max();
    iout[t] = lo * 3 + hi + far + (imin < v ? 1 : 0) + (int)(umax >> 28) +
              (int)(offsetof(rec, b) * std::numeric_limits<char>::digits) +
              (int)sizeof(std::size_t) + std::numeric_limits<float>::digits;

    const float y = x[t];
    float f = std::sqrt(y) + std::fabs(-y) + std::floor(y * 1.5f) + std::fma(y, y, 1.0f) +
              std::fmin(y, 2.0f) +
              std::fmax(y, 3.0f) + std::trunc(y * 2.5f) + std::copysign(y, -1.0f);
    if (std::isnan(y - std::numeric_limits<float>::quiet_NaN()))
        f += 1.0f;
    if (std::isinf(std::numeric_limits<float>::infinity()))
        f += 2.0f;
    f = std::min(f, std::numeric_limits<float>::max()) + std::numeric_limits<float>::epsilon();
    {
        using namespace std;
        f += sqrt(y * 4.0f) + min(y, 3.0f) + max(1.0f, y) + floorf(y) + abs(-y);
    }
    fout[t] = t % 7 == 6 ? std::numeric_limits<float>::lowest() : f;
}
