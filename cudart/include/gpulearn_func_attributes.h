/* gpulearn_func_attributes.h — struct cudaFuncAttributes with CUDA 13's layout
 * (driver_types.h: the same fields in the same order, so that a program compiled against
 * the Toolkit's headers and one compiled against cudart/include read the same bytes), in
 * C for cudart/cudart.c and C++ for cuda_runtime.h. cudart.c cudaFuncGetAttributes says
 * which fields it fills. */
#ifndef GPULEARN_FUNC_ATTRIBUTES_H
#define GPULEARN_FUNC_ATTRIBUTES_H

#include <stddef.h>

struct cudaFuncAttributes {
    size_t sharedSizeBytes; /* static shared memory, bytes */
    size_t constSizeBytes;
    size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
    int clusterDimMustBeSet;
    int requiredClusterWidth;
    int requiredClusterHeight;
    int requiredClusterDepth;
    int clusterSchedulingPolicyPreference;
    int nonPortableClusterSizeAllowed;
    int reserved[16];
};

#endif
