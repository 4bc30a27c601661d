/* cuda_runtime_api.h — the same declarations as cuda_runtime.h (whole programs; docs/architecture.md). */
#include "cuda_runtime.h"
