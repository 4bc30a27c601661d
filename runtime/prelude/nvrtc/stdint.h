/* stdint.h — for NVRTC, which has no C library headers ("cannot open source file
 * stdint.h"): the exact-width integer types and their limits (C11 §7.20) as libcu++
 * defines them for NVRTC (the CUDA Toolkit's <cuda/std/cstdint>), so that a kernel may
 * include both. */
#ifndef GPULEARN_NVRTC_STDINT_H
#define GPULEARN_NVRTC_STDINT_H
#include <cuda/std/cstdint>
#endif
