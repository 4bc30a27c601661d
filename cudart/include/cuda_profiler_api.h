/* cuda_profiler_api.h — cudaProfilerStart/Stop for whole programs compiled with clang
 * (`gpulearn run PROG.cu`): declared with the rest of the runtime in cuda_runtime.h, so
 * that this folder shadows a Toolkit's copy on the include path. */
#include "cuda_runtime.h"
