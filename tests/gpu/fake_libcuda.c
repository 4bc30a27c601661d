/* fake_libcuda.c — a stand-in for libcuda.so.1 so that the GPU back end's worker path
 * (runtime/gpu.c + runtime/worker.c + runtime/run.c) is tested end to end on machines
 * without a GPU. tests/test_gpu.c builds it with `cc -shared -fPIC` and points
 * GPULEARN_LIBCUDA at it. It answers cuGetProcAddress_v2 with the functions below.
 *
 * Device memory is host memory (cuMemAlloc = malloc), a launch runs nothing: kernels
 * leave buffers as they were copied in, and "device printf" is one line written to fd 1
 * at the next synchronisation. FAKE_CUDA selects a behaviour:
 *   ok (default)  every call succeeds
 *   nodevice      cuInit returns CUDA_ERROR_NO_DEVICE
 *   fault         synchronising after a launch returns CUDA_ERROR_ILLEGAL_ADDRESS
 *   hang          synchronising after a launch never returns (an endless kernel)
 *   crash         synchronising after a launch kills the process with SIGSEGV
 * cuEventElapsedTime returns 1, 2, 3, 4, 5, 1, 2, ... ms on successive calls. */
#include <cuda.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int launched;
static unsigned elapsed_calls;
static char last_kernel[256];

static const char *mode(void)
{
    const char *m = getenv("FAKE_CUDA");
    return m && *m ? m : "ok";
}

static CUresult fake_cuGetErrorName(CUresult r, const char **s)
{
    switch (r) {
    case CUDA_SUCCESS: *s = "CUDA_SUCCESS"; break;
    case CUDA_ERROR_NO_DEVICE: *s = "CUDA_ERROR_NO_DEVICE"; break;
    case CUDA_ERROR_NOT_FOUND: *s = "CUDA_ERROR_NOT_FOUND"; break;
    case CUDA_ERROR_ILLEGAL_ADDRESS: *s = "CUDA_ERROR_ILLEGAL_ADDRESS"; break;
    default: *s = "CUDA_ERROR_UNKNOWN"; break;
    }
    return CUDA_SUCCESS;
}

static CUresult fake_cuGetErrorString(CUresult r, const char **s)
{
    switch (r) {
    case CUDA_ERROR_NO_DEVICE: *s = "no CUDA-capable device is detected"; break;
    case CUDA_ERROR_ILLEGAL_ADDRESS: *s = "an illegal memory access was encountered"; break;
    default: *s = "fake error"; break;
    }
    return CUDA_SUCCESS;
}

static CUresult fake_cuInit(unsigned flags)
{
    (void)flags;
    return strcmp(mode(), "nodevice") == 0 ? CUDA_ERROR_NO_DEVICE : CUDA_SUCCESS;
}

static CUresult fake_cuDriverGetVersion(int *v)
{
    *v = 13000;
    return CUDA_SUCCESS;
}

static CUresult fake_cuDeviceGetCount(int *n)
{
    *n = 1;
    return CUDA_SUCCESS;
}

static CUresult fake_cuDeviceGet(CUdevice *d, int ordinal)
{
    *d = ordinal;
    return CUDA_SUCCESS;
}

static CUresult fake_cuDeviceGetName(char *name, int len, CUdevice d)
{
    (void)d;
    strncpy(name, "Fake GPU", (size_t)len);
    return CUDA_SUCCESS;
}

static CUresult fake_cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d)
{
    (void)d;
    switch (a) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 132; break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *v = 32; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: *v = 2048; break;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK: *v = 65536; break;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR: *v = 65536; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR: *v = 32; break;
    case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: *v = 50 << 20; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: *v = 48 << 10; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *v = 227 << 10; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: *v = 228 << 10; break;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: *v = 1980000; break;
    case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: *v = 2619000; break;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: *v = 5120; break;
    default: *v = 7; break;
    }
    return CUDA_SUCCESS;
}

static CUresult fake_cuDeviceTotalMem(size_t *bytes, CUdevice d)
{
    (void)d;
    *bytes = (size_t)80 << 30;
    return CUDA_SUCCESS;
}

static int ctx_storage;

static CUresult fake_cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d)
{
    (void)d;
    *c = (CUcontext)(void *)&ctx_storage;
    return CUDA_SUCCESS;
}

static CUresult fake_cuDevicePrimaryCtxRelease(CUdevice d)
{
    (void)d;
    return CUDA_SUCCESS;
}

static CUresult fake_cuCtxSetCurrent(CUcontext c)
{
    (void)c;
    return CUDA_SUCCESS;
}

/* What a launch does when it is waited for, per FAKE_CUDA. */
static CUresult finish_launch(void)
{
    if (!launched)
        return CUDA_SUCCESS;
    launched = 0;
    const char *m = mode();
    if (strcmp(m, "hang") == 0)
        for (;;)
            pause();
    if (strcmp(m, "crash") == 0)
        raise(SIGSEGV);
    char line[300];
    size_t n = (size_t)snprintf(line, sizeof line, "fake printf from %s\n", last_kernel);
    if (write(1, line, n) < 0)
        return CUDA_ERROR_UNKNOWN;
    return strcmp(m, "fault") == 0 ? CUDA_ERROR_ILLEGAL_ADDRESS : CUDA_SUCCESS;
}

/* Either prototype (CUDA 13: takes the context) is fine: the argument is ignored. */
static CUresult fake_cuCtxSynchronize(void) { return finish_launch(); }

static int module_storage;

static CUresult fake_cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned n,
                                        CUjit_option *o, void **v)
{
    (void)image, (void)n, (void)o, (void)v;
    *m = (CUmodule)(void *)&module_storage;
    return CUDA_SUCCESS;
}

static CUresult fake_cuModuleUnload(CUmodule m)
{
    (void)m;
    return CUDA_SUCCESS;
}

static char function_names[16][256];
static int nfunctions;

static CUresult fake_cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
    (void)m;
    if (strcmp(name, "missing") == 0)
        return CUDA_ERROR_NOT_FOUND;
    int i = nfunctions < 16 ? nfunctions++ : 15;
    strncpy(function_names[i], name, 255);
    *f = (CUfunction)(void *)function_names[i];
    return CUDA_SUCCESS;
}

static CUresult fake_cuMemAlloc(CUdeviceptr *p, size_t bytes)
{
    void *m = calloc(1, bytes);
    *p = (CUdeviceptr)(uintptr_t)m;
    return m ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

static CUresult fake_cuMemFree(CUdeviceptr p)
{
    free((void *)(uintptr_t)p);
    return CUDA_SUCCESS;
}

static CUresult fake_cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n)
{
    memcpy((void *)(uintptr_t)dst, src, n);
    return CUDA_SUCCESS;
}

static CUresult fake_cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n)
{
    memcpy(dst, (const void *)(uintptr_t)src, n);
    return CUDA_SUCCESS;
}

static CUresult fake_cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                                    unsigned bx, unsigned by, unsigned bz, unsigned shared,
                                    CUstream s, void **params, void **extra)
{
    (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)shared, (void)s;
    (void)params, (void)extra;
    strncpy(last_kernel, (const char *)(void *)f, sizeof last_kernel - 1);
    launched = 1;
    return CUDA_SUCCESS;
}

static int event_storage[2];

static CUresult fake_cuEventCreate(CUevent *e, unsigned flags)
{
    (void)flags;
    *e = (CUevent)(void *)&event_storage[0];
    return CUDA_SUCCESS;
}

static CUresult fake_cuEventRecord(CUevent e, CUstream s)
{
    (void)e, (void)s;
    return CUDA_SUCCESS;
}

static CUresult fake_cuEventSynchronize(CUevent e)
{
    (void)e;
    return finish_launch();
}

static CUresult fake_cuEventElapsedTime(float *ms, CUevent a, CUevent b)
{
    (void)a, (void)b;
    *ms = (float)(elapsed_calls++ % 5 + 1);
    return CUDA_SUCCESS;
}

static CUresult fake_cuEventDestroy(CUevent e)
{
    (void)e;
    return CUDA_SUCCESS;
}

/* Every kernel uses 40 registers a thread and 1 KiB of static shared memory, and 3
 * blocks fit on an SM, whatever their size. */
static CUresult fake_cuFuncGetAttribute(int *v, CUfunction_attribute a, CUfunction f)
{
    (void)f;
    *v = a == CU_FUNC_ATTRIBUTE_NUM_REGS ? 40 : a == CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES ? 1024 : 0;
    return CUDA_SUCCESS;
}

static CUresult fake_cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v)
{
    (void)f, (void)a;
    return v <= 227 * 1024 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

static CUresult fake_cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction f, int threads,
                                                                  size_t dynamic_shared)
{
    (void)f, (void)threads, (void)dynamic_shared;
    *n = 3;
    return CUDA_SUCCESS;
}

static const struct {
    const char *name;
    void *fn;
} table[] = {
#define F(n) {#n, (void *)fake_##n}
    F(cuGetErrorName),     F(cuGetErrorString),        F(cuInit),
    F(cuDriverGetVersion), F(cuDeviceGetCount),        F(cuDeviceGet),
    F(cuDeviceGetName),    F(cuDeviceGetAttribute),    F(cuDeviceTotalMem),
    F(cuDevicePrimaryCtxRetain), F(cuDevicePrimaryCtxRelease), F(cuCtxSetCurrent),
    F(cuCtxSynchronize),   F(cuModuleLoadDataEx),      F(cuModuleUnload),
    F(cuModuleGetFunction), F(cuMemAlloc),             F(cuMemFree),
    F(cuMemcpyHtoD),       F(cuMemcpyDtoH),            F(cuLaunchKernel),
    F(cuEventCreate),      F(cuEventRecord),           F(cuEventSynchronize),
    F(cuEventElapsedTime), F(cuEventDestroy),          F(cuFuncGetAttribute),
    F(cuOccupancyMaxActiveBlocksPerMultiprocessor), F(cuFuncSetAttribute),
#undef F
};

/* The one symbol gpu.c looks up with dlsym. */
CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *status);
CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *status)
{
    (void)version, (void)flags;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(symbol, table[i].name) == 0) {
            *pfn = table[i].fn;
            if (status)
                *status = CU_GET_PROC_ADDRESS_SUCCESS;
            return CUDA_SUCCESS;
        }
    *pfn = NULL;
    if (status)
        *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return CUDA_ERROR_NOT_FOUND;
}
