/* limits.h — for NVRTC, which has no C library headers ("cannot open source file
 * limits.h"): the limits of the integer types (C11 §5.2.4.2.1) as libcu++ defines them
 * for NVRTC (the CUDA Toolkit's <cuda/std/climits>), so that a kernel may include both. */
#ifndef GPULEARN_NVRTC_LIMITS_H
#define GPULEARN_NVRTC_LIMITS_H
#include <cuda/std/climits>
#endif
