/* stddef.h — for NVRTC, which has no C library headers ("cannot open source file
 * stddef.h"): size_t and ptrdiff_t are built into NVRTC; this adds NULL and offsetof
 * (C11 §7.19), which NVRTC has no builtin for. */
#ifndef GPULEARN_NVRTC_STDDEF_H
#define GPULEARN_NVRTC_STDDEF_H
#ifndef NULL
#define NULL 0
#endif
#define offsetof(type, member) ((size_t) & (((type *)0)->member))
#endif
