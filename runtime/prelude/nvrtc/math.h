/* math.h — for NVRTC, which has no C library headers ("cannot open source file
 * math.h"). The math functions (sqrtf, expf, sinf, ...) are built into NVRTC; this adds
 * the constants C11 §7.12 and POSIX define (INFINITY and NAN as bit patterns, as the
 * CUDA Toolkit's math_constants.h writes them: NVRTC has no __builtin_inff). */
#ifndef GPULEARN_NVRTC_MATH_H
#define GPULEARN_NVRTC_MATH_H
#ifndef INFINITY /* (libcu++'s <cuda/std/cmath> defines both for NVRTC) */
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fc00000) /* the quiet NaN nvcc's NAN is (glibc's) */
#endif
#define HUGE_VALF __int_as_float(0x7f800000)
#define HUGE_VAL __longlong_as_double(0x7ff0000000000000LL)
#include "../include/gpulearn/posix_math.h"
#endif
