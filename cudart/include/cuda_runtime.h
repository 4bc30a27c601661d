/* cuda_runtime.h — the host side of the CUDA runtime API for whole programs compiled with
 * clang in CUDA mode without a Toolkit (`gpulearn run PROG.cu`; docs/architecture.md
 * "Whole programs"). It declares what gpulearn's runtime (cudart/cudart.c, linked into
 * the program) provides, with NVIDIA's names, types, error codes and default arguments
 * (CUDA Runtime API reference, "Modules"); what kernels use (built-in variables, vector
 * types, atomics, intrinsics) comes from runtime/prelude/gpulearn_prelude.h, which every
 * compile gets. A function declared here and not provided would be a link error naming
 * it, which gpulearn reports as "not provided". */
#ifndef GPULEARN_CUDA_RUNTIME_H
#define GPULEARN_CUDA_RUNTIME_H
/* NVIDIA's include guards, which headers test to see the runtime API (cuda-samples'
 * helper_cuda.h: findCudaDevice, checkCudaErrors) */
#define __CUDA_RUNTIME_H__
#define __DRIVER_TYPES_H__

#include <stddef.h>
/* what NVIDIA's cuda_runtime.h brings in for host code too (crt/math_functions.h) */
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A host-only C++ file of the program (.cpp, compiled without CUDA): the CUDA keywords
 * mean nothing there, and the vector types, dim3 and make_ functions are the kernels'
 * (runtime/prelude/include/gpulearn/vector_types.h, on its include path) */
#ifndef __CUDA__
#define __host__
#define __device__
#define __global__
#define __shared__
#define __constant__
#define __managed__
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define GL_HD static __inline__
#include <gpulearn/vector_types.h>
#endif

#define CUDART_VERSION 12000
#define __CUDART_API_VERSION 12000

/* cudaError_t: NVIDIA's codes (driver_types.h), those gpulearn returns. */
enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorCudartUnloading = 4,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidPitchValue = 12,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidKernelImage = 200,
    cudaErrorNoKernelImageForDevice = 209,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorSymbolNotFound = 500,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorAssert = 710,
    cudaErrorMisalignedAddress = 716,
    cudaErrorLaunchFailure = 719,
    cudaErrorNotPermitted = 800,
    cudaErrorNotSupported = 801,
    cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};

#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventWaitDefault 0x00
#define cudaEventWaitExternal 0x01

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;

/* The device's properties (CUDA 13's layout), from the modelled device profile. */
#include "gpulearn_device_prop.h"
/* A kernel's attributes (CUDA 13's layout): cudaFuncGetAttributes. */
#include "gpulearn_func_attributes.h"

/* cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags's flags */
#define cudaOccupancyDefault 0x00
#define cudaOccupancyDisableCachingOverride 0x01

enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9
};

/* cudaDeviceAttr: every value of CUDA 13's driver_types.h (cudaDeviceGetAttribute). */
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxPitch = 11,
    cudaDevAttrMaxRegistersPerBlock = 12,
    cudaDevAttrClockRate = 13,
    cudaDevAttrTextureAlignment = 14,
    cudaDevAttrGpuOverlap = 15,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrKernelExecTimeout = 17,
    cudaDevAttrIntegrated = 18,
    cudaDevAttrCanMapHostMemory = 19,
    cudaDevAttrComputeMode = 20,
    cudaDevAttrMaxTexture1DWidth = 21,
    cudaDevAttrMaxTexture2DWidth = 22,
    cudaDevAttrMaxTexture2DHeight = 23,
    cudaDevAttrMaxTexture3DWidth = 24,
    cudaDevAttrMaxTexture3DHeight = 25,
    cudaDevAttrMaxTexture3DDepth = 26,
    cudaDevAttrMaxTexture2DLayeredWidth = 27,
    cudaDevAttrMaxTexture2DLayeredHeight = 28,
    cudaDevAttrMaxTexture2DLayeredLayers = 29,
    cudaDevAttrSurfaceAlignment = 30,
    cudaDevAttrConcurrentKernels = 31,
    cudaDevAttrEccEnabled = 32,
    cudaDevAttrPciBusId = 33,
    cudaDevAttrPciDeviceId = 34,
    cudaDevAttrTccDriver = 35,
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrAsyncEngineCount = 40,
    cudaDevAttrUnifiedAddressing = 41,
    cudaDevAttrMaxTexture1DLayeredWidth = 42,
    cudaDevAttrMaxTexture1DLayeredLayers = 43,
    cudaDevAttrMaxTexture2DGatherWidth = 45,
    cudaDevAttrMaxTexture2DGatherHeight = 46,
    cudaDevAttrMaxTexture3DWidthAlt = 47,
    cudaDevAttrMaxTexture3DHeightAlt = 48,
    cudaDevAttrMaxTexture3DDepthAlt = 49,
    cudaDevAttrPciDomainId = 50,
    cudaDevAttrTexturePitchAlignment = 51,
    cudaDevAttrMaxTextureCubemapWidth = 52,
    cudaDevAttrMaxTextureCubemapLayeredWidth = 53,
    cudaDevAttrMaxTextureCubemapLayeredLayers = 54,
    cudaDevAttrMaxSurface1DWidth = 55,
    cudaDevAttrMaxSurface2DWidth = 56,
    cudaDevAttrMaxSurface2DHeight = 57,
    cudaDevAttrMaxSurface3DWidth = 58,
    cudaDevAttrMaxSurface3DHeight = 59,
    cudaDevAttrMaxSurface3DDepth = 60,
    cudaDevAttrMaxSurface1DLayeredWidth = 61,
    cudaDevAttrMaxSurface1DLayeredLayers = 62,
    cudaDevAttrMaxSurface2DLayeredWidth = 63,
    cudaDevAttrMaxSurface2DLayeredHeight = 64,
    cudaDevAttrMaxSurface2DLayeredLayers = 65,
    cudaDevAttrMaxSurfaceCubemapWidth = 66,
    cudaDevAttrMaxSurfaceCubemapLayeredWidth = 67,
    cudaDevAttrMaxSurfaceCubemapLayeredLayers = 68,
    cudaDevAttrMaxTexture1DLinearWidth = 69,
    cudaDevAttrMaxTexture2DLinearWidth = 70,
    cudaDevAttrMaxTexture2DLinearHeight = 71,
    cudaDevAttrMaxTexture2DLinearPitch = 72,
    cudaDevAttrMaxTexture2DMipmappedWidth = 73,
    cudaDevAttrMaxTexture2DMipmappedHeight = 74,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrMaxTexture1DMipmappedWidth = 77,
    cudaDevAttrStreamPrioritiesSupported = 78,
    cudaDevAttrGlobalL1CacheSupported = 79,
    cudaDevAttrLocalL1CacheSupported = 80,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82,
    cudaDevAttrManagedMemory = 83,
    cudaDevAttrIsMultiGpuBoard = 84,
    cudaDevAttrMultiGpuBoardGroupID = 85,
    cudaDevAttrHostNativeAtomicSupported = 86,
    cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
    cudaDevAttrPageableMemoryAccess = 88,
    cudaDevAttrConcurrentManagedAccess = 89,
    cudaDevAttrComputePreemptionSupported = 90,
    cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
    cudaDevAttrReserved92 = 92,
    cudaDevAttrReserved93 = 93,
    cudaDevAttrReserved94 = 94,
    cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrReserved96 = 96,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrCanFlushRemoteWrites = 98,
    cudaDevAttrHostRegisterSupported = 99,
    cudaDevAttrPageableMemoryAccessUsesHostPageTables = 100,
    cudaDevAttrDirectManagedMemAccessFromHost = 101,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106,
    cudaDevAttrMaxPersistingL2CacheSize = 108,
    cudaDevAttrMaxAccessPolicyWindowSize = 109,
    cudaDevAttrReservedSharedMemoryPerBlock = 111,
    cudaDevAttrSparseCudaArraySupported = 112,
    cudaDevAttrHostRegisterReadOnlySupported = 113,
    cudaDevAttrTimelineSemaphoreInteropSupported = 114,
    cudaDevAttrMemoryPoolsSupported = 115,
    cudaDevAttrGPUDirectRDMASupported = 116,
    cudaDevAttrGPUDirectRDMAFlushWritesOptions = 117,
    cudaDevAttrGPUDirectRDMAWritesOrdering = 118,
    cudaDevAttrMemoryPoolSupportedHandleTypes = 119,
    cudaDevAttrClusterLaunch = 120,
    cudaDevAttrDeferredMappingCudaArraySupported = 121,
    cudaDevAttrReserved122 = 122,
    cudaDevAttrReserved123 = 123,
    cudaDevAttrReserved124 = 124,
    cudaDevAttrIpcEventSupport = 125,
    cudaDevAttrMemSyncDomainCount = 126,
    cudaDevAttrReserved127 = 127,
    cudaDevAttrReserved128 = 128,
    cudaDevAttrReserved129 = 129,
    cudaDevAttrNumaConfig = 130,
    cudaDevAttrNumaId = 131,
    cudaDevAttrReserved132 = 132,
    cudaDevAttrMpsEnabled = 133,
    cudaDevAttrHostNumaId = 134,
    cudaDevAttrD3D12CigSupported = 135,
    cudaDevAttrVulkanCigSupported = 138,
    cudaDevAttrGpuPciDeviceId = 139,
    cudaDevAttrGpuPciSubsystemId = 140,
    cudaDevAttrReserved141 = 141,
    cudaDevAttrHostNumaMemoryPoolsSupported = 142,
    cudaDevAttrHostNumaMultinodeIpcSupported = 143,
    cudaDevAttrHostMemoryPoolsSupported = 144,
    cudaDevAttrReserved145 = 145,
    cudaDevAttrOnlyPartialHostNativeAtomicSupported = 147
};

/* cudaComputeMode (cudaDevAttrComputeMode): the simulated device is in the default mode. */
enum cudaComputeMode {
    cudaComputeModeDefault = 0,
    cudaComputeModeExclusive = 1,
    cudaComputeModeProhibited = 2,
    cudaComputeModeExclusiveProcess = 3
};

extern "C" {
/* errors (CUDA Runtime API §6.3) */
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t error);
const char *cudaGetErrorName(cudaError_t error);
/* devices (§6.1) */
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
/* memory (§6.9, §6.10) */
/* cudaMalloc and cudaMallocManaged with the caller's file and line (below), which name the
 * allocation in gpulearn's messages */
cudaError_t __gpulearn_cudaMalloc(void **devPtr, size_t size, const char *file, int line);
cudaError_t __gpulearn_cudaMallocManaged(void **devPtr, size_t size, unsigned int flags,
                                         const char *file, int line);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags);
cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
cudaError_t cudaFree(void *devPtr);
/* cudaFree and cudaMemcpy with the caller's file and line (the macros below), which
 * gpulearn's messages about a refused call name */
cudaError_t __gpulearn_cudaFree(void *devPtr, const char *file, int line);
cudaError_t __gpulearn_cudaMemcpy(void *dst, const void *src, size_t count,
                                  enum cudaMemcpyKind kind, const char *file, int line);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
/* cudaMemset, cudaMemsetAsync and cudaMemcpyAsync with the caller's file and line (the
 * wrappers below) */
cudaError_t __gpulearn_cudaMemset(void *devPtr, int value, size_t count, const char *file,
                                  int line);
cudaError_t __gpulearn_cudaMemsetAsync(void *devPtr, int value, size_t count, const char *file,
                                       int line);
cudaError_t __gpulearn_cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                       enum cudaMemcpyKind kind, const char *file, int line);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
                                 cudaStream_t stream = 0);
cudaError_t cudaMemAdvise(const void *devPtr, size_t count, int advice, int device);
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset = 0,
                               enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset = 0,
                                 enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
/* streams and events (§6.4, §6.6): streams run in order, synchronously */
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);
/* profiler control (§6.32): no-ops */
cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStop(void);
/* launches (§6.8) and what clang's kernel stubs call */
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
/* occupancy (§6.9): the CUDA Occupancy Calculator's rules for the modelled device, with
 * the registers ptxas counts for it */
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize, size_t dynamicSMemSize);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
                                                                   const void *func,
                                                                   int blockSize,
                                                                   size_t dynamicSMemSize,
                                                                   unsigned int flags);
cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                             size_t sharedMem, cudaStream_t stream);
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                                     void *stream = 0);
cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                              cudaStream_t stream = 0);
}

/* A call of cudaFree or cudaMemcpy passes on its file and line; the name alone (a
 * deleter, a function pointer) is still NVIDIA's function */
#define cudaFree(...) __gpulearn_cudaFree(__VA_ARGS__, __FILE__, __LINE__)
#define cudaMemcpy(...) __gpulearn_cudaMemcpy(__VA_ARGS__, __FILE__, __LINE__)

/* cudaMalloc and cudaMallocManaged as NVIDIA declares them (void ** and the C++
 * template), passing on where they were called from (clang's __builtin_FILE and
 * __builtin_LINE in a default argument are the call's) */
static inline cudaError_t cudaMalloc(void **devPtr, size_t size,
                                     const char *file = __builtin_FILE(),
                                     int line = __builtin_LINE())
{
    return __gpulearn_cudaMalloc(devPtr, size, file, line);
}
template <class T>
static inline cudaError_t cudaMalloc(T **devPtr, size_t size, const char *file = __builtin_FILE(),
                                     int line = __builtin_LINE())
{
    return __gpulearn_cudaMalloc((void **)devPtr, size, file, line);
}
static inline cudaError_t cudaMallocManaged(void **devPtr, size_t size,
                                            unsigned int flags = cudaMemAttachGlobal,
                                            const char *file = __builtin_FILE(),
                                            int line = __builtin_LINE())
{
    return __gpulearn_cudaMallocManaged(devPtr, size, flags, file, line);
}
template <class T>
static inline cudaError_t
cudaMallocManaged(T **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal,
                  const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return __gpulearn_cudaMallocManaged((void **)devPtr, size, flags, file, line);
}
/* Streams run in order here, so the async forms are the plain ones (the stream is
 * unused); all three pass on where they were called from, as cudaMalloc does */
static inline cudaError_t cudaMemset(void *devPtr, int value, size_t count,
                                     const char *file = __builtin_FILE(),
                                     int line = __builtin_LINE())
{
    return __gpulearn_cudaMemset(devPtr, value, count, file, line);
}
static inline cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                                          cudaStream_t stream = 0,
                                          const char *file = __builtin_FILE(),
                                          int line = __builtin_LINE())
{
    (void)stream;
    return __gpulearn_cudaMemsetAsync(devPtr, value, count, file, line);
}
static inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                          enum cudaMemcpyKind kind, cudaStream_t stream = 0,
                                          const char *file = __builtin_FILE(),
                                          int line = __builtin_LINE())
{
    (void)stream;
    return __gpulearn_cudaMemcpyAsync(dst, src, count, kind, file, line);
}
template <class T> static inline cudaError_t cudaMallocHost(T **ptr, size_t size)
{
    return cudaMallocHost((void **)ptr, size);
}
template <class T> static inline cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags)
{
    return cudaHostAlloc((void **)ptr, size, flags);
}
template <class T>
static inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                                             size_t offset = 0,
                                             enum cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    return cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <class T>
static inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
                                               size_t offset = 0,
                                               enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
    return cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}
template <class T> static inline cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol)
{
    return cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}
template <class T>
static inline cudaError_t cudaFuncSetAttribute(T *func, enum cudaFuncAttribute attr, int value)
{
    return cudaFuncSetAttribute((const void *)func, attr, value);
}
template <class T>
static inline cudaError_t cudaMallocPitch(T **devPtr, size_t *pitch, size_t width, size_t height)
{
    return cudaMallocPitch((void **)devPtr, pitch, width, height);
}
template <class T>
static inline cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *entry)
{
    return cudaFuncGetAttributes(attr, (const void *)entry);
}
template <class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func,
                                                                        int blockSize,
                                                                        size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        numBlocks, (const void *)func, blockSize, dynamicSMemSize, cudaOccupancyDefault);
}
template <class T>
static inline cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, T func, int blockSize,
                                                       size_t dynamicSMemSize, unsigned int flags)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        numBlocks, (const void *)func, blockSize, dynamicSMemSize, flags);
}
/* A constant dynamic shared memory size for every block size (as NVIDIA's
 * __cudaOccupancyB2DHelper). */
class __cudaOccupancyB2DHelper
{
    size_t n;

  public:
    inline __host__ __cudaOccupancyB2DHelper(size_t n_) : n(n_) {}
    inline __host__ size_t operator()(int) { return n; }
};
/* The block size with the most resident threads per SM (CUDA Runtime API §6.9
 * cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags): every size from the limit
 * (blockSizeLimit, the device's and the kernel's most threads per block) down, a warp at a
 * time, with blockSizeToDynamicSMemSize(size) bytes of dynamic shared memory; the first
 * size that fills an SM ends the search. *minGridSize: the blocks that fill every SM. */
template <typename UnaryFunction, class T>
static inline cudaError_t
cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(int *minGridSize, int *blockSize, T func,
                                                        UnaryFunction blockSizeToDynamicSMemSize,
                                                        int blockSizeLimit = 0,
                                                        unsigned int flags = 0)
{
    if (!minGridSize || !blockSize || !func)
        return cudaErrorInvalidValue;
    int device, perSm, warp, devMax, sms;
    struct cudaFuncAttributes attr;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&perSm, cudaDevAttrMaxThreadsPerMultiProcessor, device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&devMax, cudaDevAttrMaxThreadsPerBlock, device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e == cudaSuccess)
        e = cudaFuncGetAttributes(&attr, (const void *)func);
    if (e != cudaSuccess)
        return e;
    if (blockSizeLimit == 0 || blockSizeLimit > devMax)
        blockSizeLimit = devMax;
    if (attr.maxThreadsPerBlock < blockSizeLimit)
        blockSizeLimit = attr.maxThreadsPerBlock;
    int best = 0, bestBlocks = 0, bestThreads = 0;
    for (int aligned = (blockSizeLimit + warp - 1) / warp * warp; aligned > 0; aligned -= warp) {
        const int size = aligned < blockSizeLimit ? aligned : blockSizeLimit;
        int blocks = 0;
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
            &blocks, (const void *)func, size, blockSizeToDynamicSMemSize(size), flags);
        if (e != cudaSuccess)
            return e;
        if (size * blocks > bestThreads) {
            best = size;
            bestBlocks = blocks;
            bestThreads = size * blocks;
        }
        if (bestThreads == perSm)
            break;
    }
    *minGridSize = bestBlocks * sms;
    *blockSize = best;
    return cudaSuccess;
}
template <typename UnaryFunction, class T>
static inline cudaError_t
cudaOccupancyMaxPotentialBlockSizeVariableSMem(int *minGridSize, int *blockSize, T func,
                                               UnaryFunction blockSizeToDynamicSMemSize,
                                               int blockSizeLimit = 0)
{
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
        minGridSize, blockSize, func, blockSizeToDynamicSMemSize, blockSizeLimit,
        cudaOccupancyDefault);
}
template <class T>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize,
                                                             T func, size_t dynamicSMemSize = 0,
                                                             int blockSizeLimit = 0)
{
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
        minGridSize, blockSize, func, __cudaOccupancyB2DHelper(dynamicSMemSize), blockSizeLimit,
        cudaOccupancyDefault);
}
template <class T>
static inline cudaError_t
cudaOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, T func,
                                            size_t dynamicSMemSize = 0, int blockSizeLimit = 0,
                                            unsigned int flags = 0)
{
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
        minGridSize, blockSize, func, __cudaOccupancyB2DHelper(dynamicSMemSize), blockSizeLimit,
        flags);
}
template <class T>
static inline cudaError_t cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                                           size_t sharedMem = 0, cudaStream_t stream = 0)
{
    return cudaLaunchKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}

#endif
