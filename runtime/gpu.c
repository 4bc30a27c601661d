/* gpu.c — the GPU back end: the CUDA driver API, loaded at run time with dlopen so that
 * gpulearn starts (and teaches, on the simulator) on machines without an NVIDIA driver.
 *
 * Only libcuda.so.1's cuGetProcAddress is looked up with dlsym; every other entry point
 * comes from cuGetProcAddress at CUDA_VERSION, the API version of the cuda.h we were
 * built against, and is stored in a pointer of the type cuda.h's own prototype gives it
 * (several names are macros for _v2 entry points, e.g. cuMemAlloc -> cuMemAlloc_v2;
 * asking for the base name at CUDA_VERSION returns exactly the version cuda.h declares).
 * CUDA Driver API §6.2 (error handling), §6.8 (primary context), §6.11 (modules),
 * §6.13 (memory), §6.19 (events), §6.22 (execution), §6.33 (driver entry point access). */
#include "runtime/arch.h"
#include "runtime/backend.h"
#include "sim/sim.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef GL_HAVE_CUDA_H

#include <cuda.h>
#include <dlfcn.h>

/* The driver entry points gpulearn uses, resolved at CUDA_VERSION. */
/* cuda.h maps most names to the entry point of the API version it describes (e.g.
 * cuMemAlloc -> cuMemAlloc_v2), and cuGetProcAddress at CUDA_VERSION returns those.
 * cuCtxSynchronize is the exception: cuda.h 13.0 still declares the 2.0 prototype under
 * the plain name, but at version 13000 the driver returns cuCtxSynchronize_v2, which
 * takes the context (cudaTypedefs.h: PFN_cuCtxSynchronize_v13000). Name it so the
 * pointer gets that prototype; #name below still asks for "cuCtxSynchronize". */
#if CUDA_VERSION >= 13000
#define cuCtxSynchronize cuCtxSynchronize_v2
#define CTX_SYNCHRONIZE(g) (g)->p_cuCtxSynchronize((g)->ctx)
#else
#define CTX_SYNCHRONIZE(g) (g)->p_cuCtxSynchronize()
#endif

#define CU_SYMBOLS(X)                                                                              \
    X(cuGetErrorName)                                                                              \
    X(cuGetErrorString)                                                                            \
    X(cuInit)                                                                                      \
    X(cuDriverGetVersion)                                                                          \
    X(cuDeviceGetCount)                                                                            \
    X(cuDeviceGet)                                                                                 \
    X(cuDeviceGetName)                                                                             \
    X(cuDeviceGetAttribute)                                                                        \
    X(cuDeviceTotalMem)                                                                            \
    X(cuDevicePrimaryCtxRetain)                                                                    \
    X(cuDevicePrimaryCtxRelease)                                                                   \
    X(cuCtxSetCurrent)                                                                             \
    X(cuCtxSynchronize)                                                                            \
    X(cuModuleLoadDataEx)                                                                          \
    X(cuModuleUnload)                                                                              \
    X(cuModuleGetFunction)                                                                         \
    X(cuFuncGetAttribute)                                                                          \
    X(cuFuncSetAttribute)                                                                          \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor)                                                 \
    X(cuMemAlloc)                                                                                  \
    X(cuMemFree)                                                                                   \
    X(cuMemcpyHtoD)                                                                                \
    X(cuMemcpyDtoH)                                                                                \
    X(cuLaunchKernel)                                                                              \
    X(cuEventCreate)                                                                               \
    X(cuEventRecord)                                                                               \
    X(cuEventSynchronize)                                                                          \
    X(cuEventElapsedTime)                                                                          \
    X(cuEventDestroy)

/* cuGetProcAddress since CUDA 12.0 (with a status out-parameter), and before. */
typedef CUresult (*getproc_v2_fn)(const char *, void **, int, cuuint64_t,
                                  CUdriverProcAddressQueryResult *);
typedef CUresult (*getproc_v1_fn)(const char *, void **, int, cuuint64_t);

struct gpu {
    void *lib;                /* libcuda.so.1 (never dlclose'd: the driver keeps threads) */
    getproc_v2_fn getproc_v2; /* one of these two is set */
    getproc_v1_fn getproc_v1;
    CUdevice dev;
    CUcontext ctx;   /* the primary context of dev, retained */
    CUmodule module; /* the module of the last gpu_load_ptx, or NULL */
    /* the L2 scrub before each timed run (gpu_flush_l2): its module, kernel and buffer of
     * twice the L2's size, made at the first timed run */
    CUmodule scrub_module;
    CUfunction scrub_fn;
    CUdeviceptr scrub_buf;
    size_t scrub_bytes;
    int driver_version;  /* e.g. 13000 */
    CUdeviceptr *allocs; /* every gpu_malloc, freed by gpu_close */
    size_t nallocs, cap_allocs;
    unsigned cluster[3]; /* gpu_set_cluster: the cluster shape of launches, 0s none */
    __typeof__(&cuLaunchKernelEx) p_cuLaunchKernelEx; /* CUDA 12+ drivers; else NULL */
#define X(name) __typeof__(&name) p_##name;
    CU_SYMBOLS(X)
#undef X
};

/* Looks up one driver entry point by its base name at CUDA_VERSION; NULL if absent. */
static void *cu_proc(gpu_t *g, const char *name)
{
    void *fn = NULL;
    CUresult r;
    if (g->getproc_v2) {
        CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SUCCESS;
        r = g->getproc_v2(name, &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &status);
        if (status != CU_GET_PROC_ADDRESS_SUCCESS)
            fn = NULL;
    } else {
        r = g->getproc_v1(name, &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT);
    }
    return r == CUDA_SUCCESS ? fn : NULL;
}

/* Sets err to `status` with CUDA's error name and text, e.g. "CUDA_ERROR_ILLEGAL_ADDRESS:
 * an illegal memory access was encountered (cuCtxSynchronize)". Returns status. */
static gl_status cu_fail(gpu_t *g, gl_status status, CUresult r, const char *call, gl_error *err)
{
    const char *name = NULL, *text = NULL;
    if (!g->p_cuGetErrorName || g->p_cuGetErrorName(r, &name) != CUDA_SUCCESS)
        name = NULL;
    if (!g->p_cuGetErrorString || g->p_cuGetErrorString(r, &text) != CUDA_SUCCESS)
        text = NULL;
    if (name)
        return gl_fail(err, status, "%s: %s (%s)", name, text ? text : "?", call);
    return gl_fail(err, status, "CUDA error %d (%s)", (int)r, call);
}

/* Makes the primary context current on the calling thread (cheap; lets the TUI call
 * from another thread than the one that opened the GPU). */
static gl_status gpu_enter(gpu_t *g, gl_error *err)
{
    if (!g)
        return gl_fail(err, GL_ERR_NODEVICE, "no GPU session");
    CUresult r = g->p_cuCtxSetCurrent(g->ctx);
    return r == CUDA_SUCCESS ? GL_OK : cu_fail(g, GL_ERR_CUDA, r, "cuCtxSetCurrent", err);
}

gl_status gpu_open(gpu_t **out, gl_error *err)
{
    *out = NULL;
    gpu_t *g = calloc(1, sizeof *g);
    if (!g)
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    gl_status st = GL_OK;
    const char *missing = NULL;
    CUresult r;

    /* GPULEARN_LIBCUDA names another driver library: an unusual install, or the tests'
     * fake driver (tests/gpu/fake_libcuda.c). */
    const char *libname = getenv("GPULEARN_LIBCUDA");
    if (!libname || !*libname)
        libname = "libcuda.so.1";
    g->lib = dlopen(libname, RTLD_NOW | RTLD_LOCAL);
    if (!g->lib) {
        const char *why = dlerror(); /* usually "libcuda.so.1: cannot open ..." */
        size_t ln = strlen(libname);
        if (why && strncmp(why, libname, ln) == 0 && strncmp(why + ln, ": ", 2) == 0)
            why += ln + 2;
        st = gl_fail(err, GL_ERR_NODEVICE, "no NVIDIA driver found (%s: %s)", libname,
                     why ? why : "cannot be loaded");
        goto fail;
    }
    g->getproc_v2 = (getproc_v2_fn)dlsym(g->lib, "cuGetProcAddress_v2");
    if (!g->getproc_v2)
        g->getproc_v1 = (getproc_v1_fn)dlsym(g->lib, "cuGetProcAddress");
    if (!g->getproc_v2 && !g->getproc_v1) {
        st = gl_fail(err, GL_ERR_NODEVICE,
                     "NVIDIA driver too old: libcuda.so.1 has no cuGetProcAddress (gpulearn "
                     "needs a driver for CUDA %d.%d or newer)",
                     CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10);
        goto fail;
    }
#define resolve(name)                                                                              \
    do {                                                                                           \
        void *fn_ = cu_proc(g, #name);                                                             \
        if (!fn_) {                                                                                \
            missing = #name;                                                                       \
            goto missing_symbol;                                                                   \
        }                                                                                          \
        g->p_##name = (__typeof__(g->p_##name))fn_;                                                \
    } while (0);
    CU_SYMBOLS(resolve)
#undef resolve
    g->p_cuLaunchKernelEx = (__typeof__(g->p_cuLaunchKernelEx))cu_proc(g, "cuLaunchKernelEx");

    if ((r = g->p_cuInit(0)) != CUDA_SUCCESS) {
        st = cu_fail(g,
                     r == CUDA_ERROR_NO_DEVICE || r == CUDA_ERROR_STUB_LIBRARY ||
                             r == CUDA_ERROR_SYSTEM_DRIVER_MISMATCH ||
                             r == CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE
                         ? GL_ERR_NODEVICE
                         : GL_ERR_CUDA,
                     r, "cuInit", err);
        goto fail;
    }
    int count = 0;
    if ((r = g->p_cuDeviceGetCount(&count)) != CUDA_SUCCESS) {
        st = cu_fail(g, GL_ERR_CUDA, r, "cuDeviceGetCount", err);
        goto fail;
    }
    if (count == 0) {
        st = gl_fail(err, GL_ERR_NODEVICE, "no CUDA device (the NVIDIA driver sees none)");
        goto fail;
    }
    if ((r = g->p_cuDeviceGet(&g->dev, 0)) != CUDA_SUCCESS) {
        st = cu_fail(g, GL_ERR_CUDA, r, "cuDeviceGet", err);
        goto fail;
    }
    if ((r = g->p_cuDevicePrimaryCtxRetain(&g->ctx, g->dev)) != CUDA_SUCCESS) {
        g->ctx = NULL;
        st = cu_fail(g, GL_ERR_CUDA, r, "cuDevicePrimaryCtxRetain", err);
        goto fail;
    }
    if ((st = gpu_enter(g, err)) != GL_OK)
        goto fail;
    if (g->p_cuDriverGetVersion(&g->driver_version) != CUDA_SUCCESS)
        g->driver_version = 0;
    *out = g;
    return GL_OK;

missing_symbol:
    st = gl_fail(err, GL_ERR_NODEVICE,
                 "NVIDIA driver too old: no %s for CUDA %d.%d (update the driver)", missing,
                 CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10);
fail:
    gpu_close(g);
    return st;
}

void gpu_close(gpu_t *g)
{
    if (!g)
        return;
    if (g->ctx && g->p_cuCtxSetCurrent(g->ctx) == CUDA_SUCCESS) {
        for (size_t i = 0; i < g->nallocs; i++)
            g->p_cuMemFree(g->allocs[i]);
        if (g->module)
            g->p_cuModuleUnload(g->module);
        if (g->scrub_module)
            g->p_cuModuleUnload(g->scrub_module);
        if (g->scrub_buf)
            g->p_cuMemFree(g->scrub_buf);
        g->p_cuCtxSetCurrent(NULL);
    }
    if (g->ctx)
        g->p_cuDevicePrimaryCtxRelease(g->dev);
    free(g->allocs);
    free(g);
}

/* One integer device attribute, 0 when the driver does not report it (CUDA 13
 * deprecates some, e.g. the clock rates). */
static int attr(gpu_t *g, CUdevice_attribute a)
{
    int v = 0;
    return g->p_cuDeviceGetAttribute(&v, a, g->dev) == CUDA_SUCCESS ? v : 0;
}

gl_status gpu_device_info(gpu_t *g, gl_device_info *info, gl_error *err)
{
    memset(info, 0, sizeof *info);
    gl_status st = gpu_enter(g, err);
    if (st != GL_OK)
        return st;
    CUresult r = g->p_cuDeviceGetName(info->name, (int)sizeof info->name - 1, g->dev);
    if (r != CUDA_SUCCESS)
        return cu_fail(g, GL_ERR_CUDA, r, "cuDeviceGetName", err);
    info->is_simulator = 0;
    info->compute_major = attr(g, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    info->compute_minor = attr(g, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    info->sm_count = attr(g, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    info->warp_size = attr(g, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    info->max_threads_per_block = attr(g, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    info->max_threads_per_sm = attr(g, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    info->max_block_dim[0] = attr(g, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
    info->max_block_dim[1] = attr(g, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
    info->max_block_dim[2] = attr(g, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
    info->max_grid_dim[0] = attr(g, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
    info->max_grid_dim[1] = attr(g, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
    info->max_grid_dim[2] = attr(g, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
    info->regs_per_block = attr(g, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
    info->regs_per_sm = attr(g, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
    info->max_blocks_per_sm = attr(g, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
    info->shared_bytes_per_block_optin =
        (size_t)attr(g, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    info->shared_bytes_per_block = (size_t)attr(g, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    info->shared_bytes_per_sm =
        (size_t)attr(g, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
    info->shared_reserved_per_block =
        (size_t)attr(g, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
    /* cuda_occupancy.h's cudaOccSMemAllocationGranularity */
    info->shared_alloc_unit = info->compute_major >= 8 ? 128 : 256;
    size_t total = 0;
    if (g->p_cuDeviceTotalMem(&total, g->dev) == CUDA_SUCCESS)
        info->global_bytes = total;
    info->l2_bytes = (size_t)attr(g, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    info->clock_khz = attr(g, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
    info->mem_clock_khz = attr(g, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
    info->mem_bus_bits = attr(g, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    /* Double data rate: two transfers per memory clock. */
    info->peak_bandwidth_gbs = 2.0 * info->mem_clock_khz * 1e3 * (info->mem_bus_bits / 8.0) / 1e9;
    if (g->driver_version > 0)
        snprintf(info->driver, sizeof info->driver, "%d.%d", g->driver_version / 1000,
                 g->driver_version % 1000 / 10);
    return GL_OK;
}

gl_status gpu_load_ptx(gpu_t *g, const char *ptx, gl_error *err)
{
    gl_status st = gpu_enter(g, err);
    if (st != GL_OK)
        return st;
    if (g->module) {
        g->p_cuModuleUnload(g->module);
        g->module = NULL;
    }
    /* a printf format the device printf cannot print desynchronises its arguments: the
     * kernel may fault, and the driver's host-side formatting can crash this process
     * (seen on an H200), so it is refused before loading (sim/sim.h) */
    char why[400];
    if (sim_printf_check_ptx(ptx, why, sizeof why) != 0)
        return gl_fail(err, GL_ERR_FAULT, "%s", why);
    /* PTX for a newer target than the GPU does not load (CUDA C++ Programming Guide,
     * "Binary Compatibility": PTX runs on its target and later ones): named here */
    const int want = gl_arch_ptx_target_sm(ptx);
    const int major = attr(g, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
              minor = attr(g, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    if (want > major * 10 + minor) {
        char name[128] = "the GPU";
        g->p_cuDeviceGetName(name, (int)sizeof name - 1, g->dev);
        return gl_fail(err, GL_ERR_LAUNCH,
                       "the PTX targets sm_%d, newer than this GPU (%s, compute capability "
                       "%d.%d: sm_%d%d): compile for sm_%d%d or older (--arch sm_%d%d)",
                       want, name, major, minor, major, minor, major, minor, major, minor);
    }
    char log[8192];
    log[0] = '\0';
    CUjit_option opt[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                          CU_JIT_GENERATE_LINE_INFO};
    void *val[] = {log, (void *)(uintptr_t)sizeof log, (void *)(uintptr_t)1};
    CUresult r = g->p_cuModuleLoadDataEx(&g->module, ptx, 3, opt, val);
    if (r != CUDA_SUCCESS) {
        g->module = NULL;
        log[sizeof log - 1] = '\0';
        gl_error e;
        cu_fail(g, GL_ERR_CUDA, r, "cuModuleLoadDataEx", &e);
        return gl_fail(err, GL_ERR_CUDA, "%s%s%.3500s", e.msg, log[0] ? "\n" : "", log);
    }
    return GL_OK;
}

gl_status gpu_malloc(gpu_t *g, size_t bytes, uint64_t *dptr, gl_error *err)
{
    *dptr = 0;
    gl_status st = gpu_enter(g, err);
    if (st != GL_OK)
        return st;
    if (g->nallocs == g->cap_allocs) {
        size_t cap = g->cap_allocs ? 2 * g->cap_allocs : 16;
        CUdeviceptr *a = realloc(g->allocs, cap * sizeof *a);
        if (!a)
            return gl_fail(err, GL_ERR_NOMEM, "out of memory");
        g->allocs = a;
        g->cap_allocs = cap;
    }
    CUdeviceptr d = 0;
    /* cuMemAlloc rejects 0 bytes; an empty buffer still needs a valid pointer. */
    CUresult r = g->p_cuMemAlloc(&d, bytes ? bytes : 1);
    if (r != CUDA_SUCCESS)
        return cu_fail(g, r == CUDA_ERROR_OUT_OF_MEMORY ? GL_ERR_NOMEM : GL_ERR_CUDA, r,
                       "cuMemAlloc", err);
    g->allocs[g->nallocs++] = d;
    *dptr = (uint64_t)d;
    return GL_OK;
}

gl_status gpu_htod(gpu_t *g, uint64_t dst, const void *src, size_t bytes, gl_error *err)
{
    gl_status st = gpu_enter(g, err);
    if (st != GL_OK || bytes == 0)
        return st;
    CUresult r = g->p_cuMemcpyHtoD((CUdeviceptr)dst, src, bytes);
    return r == CUDA_SUCCESS ? GL_OK : cu_fail(g, GL_ERR_CUDA, r, "cuMemcpyHtoD", err);
}

gl_status gpu_dtoh(gpu_t *g, void *dst, uint64_t src, size_t bytes, gl_error *err)
{
    gl_status st = gpu_enter(g, err);
    if (st != GL_OK || bytes == 0)
        return st;
    CUresult r = g->p_cuMemcpyDtoH(dst, (CUdeviceptr)src, bytes);
    return r == CUDA_SUCCESS ? GL_OK : cu_fail(g, GL_ERR_CUDA, r, "cuMemcpyDtoH", err);
}

/* Redirection of fd 1 into an unlinked temporary file, so that the driver's device
 * printf output (written to the process's stdout when the kernel synchronises, CUDA C++
 * Programming Guide §7.33.2) can be read back instead of reaching the terminal. */
typedef struct capture {
    int saved; /* dup of the real fd 1, or -1 when not capturing */
    int file;  /* the temporary file */
} capture;

static void capture_begin(capture *c)
{
    c->saved = c->file = -1;
    const char *t = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/gpulearn-printf-XXXXXX", t && *t ? t : "/tmp");
    c->file = mkstemp(path);
    if (c->file < 0)
        return;
    unlink(path);
    fflush(stdout);
    c->saved = dup(1);
    if (c->saved < 0 || dup2(c->file, 1) < 0) {
        if (c->saved >= 0)
            close(c->saved);
        close(c->file);
        c->saved = c->file = -1;
    }
}

/* Restores fd 1 and returns what was written (malloc'd, "" if nothing; NULL only when
 * out of memory). */
static char *capture_end(capture *c)
{
    if (c->saved < 0)
        return calloc(1, 1);
    fflush(stdout);
    dup2(c->saved, 1);
    close(c->saved);
    off_t len = lseek(c->file, 0, SEEK_END);
    char *text = malloc(len > 0 ? (size_t)len + 1 : 1);
    size_t got = 0;
    if (text && len > 0 && lseek(c->file, 0, SEEK_SET) == 0) {
        while (got < (size_t)len) {
            ssize_t n = read(c->file, text + got, (size_t)len - got);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            got += (size_t)n;
        }
    }
    if (text)
        text[got] = '\0';
    close(c->file);
    c->saved = c->file = -1;
    return text;
}

/* Whether kernel f's static shared memory plus dynamic_shared bytes is over the
 * device's opt-in limit (CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN; CUDA C++
 * Programming Guide, "Compute Capabilities"); 1 with err naming both limits. */
static int shared_over(gpu_t *g, CUfunction f, unsigned dynamic_shared, gl_error *err)
{
    if (dynamic_shared == 0) /* static shared memory alone is at most 48 KiB */
        return 0;
    int stat = 0;
    g->p_cuFuncGetAttribute(&stat, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
    const uint64_t want = (uint64_t)stat + dynamic_shared;
    const int optin = attr(g, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
              def = attr(g, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    if (optin <= 0 || want <= (uint64_t)optin)
        return 0;
    if (err)
        gl_fail(err, GL_ERR_LAUNCH,
                "%llu bytes of shared memory per block (%d static + %u dynamic) is over the "
                "limit of this GPU (compute capability %d.%d): %d KiB by default, %d KiB (%d "
                "bytes) with the opt-in maximum",
                (unsigned long long)want, stat, dynamic_shared,
                attr(g, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                attr(g, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR), def >> 10, optin >> 10,
                optin);
    return 1;
}

/* Opts kernel f in to dynamic_shared bytes of dynamic shared memory when that is more
 * than the default 48 KiB less its static shared memory allows: every GPU since Volta
 * holds more per block once CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES is raised
 * (CUDA C++ Programming Guide, "Shared Memory" of compute capability 7.x and later; an
 * H100 up to 227 KiB). A request over the device's opt-in limit fails here. */
static CUresult opt_in_shared(gpu_t *g, CUfunction f, unsigned dynamic_shared)
{
    int stat = 0;
    if (dynamic_shared == 0 ||
        g->p_cuFuncGetAttribute(&stat, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f) != CUDA_SUCCESS ||
        (uint64_t)stat + dynamic_shared <= 48u * 1024u)
        return CUDA_SUCCESS;
    return g->p_cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                   (int)dynamic_shared);
}

void gpu_set_cluster(gpu_t *g, const unsigned cluster[3])
{
    memcpy(g->cluster, cluster, sizeof g->cluster);
}

/* The loaded module's kernel, ready to launch with dynamic_shared bytes of dynamic shared
 * memory (over 48 KiB opted in): GL_OK with *f; GL_ERR_LAUNCH when no PTX is loaded, the
 * kernel is not in it or the shared memory is too much; a failed cuModuleGetFunction
 * otherwise gives status other. */
static gl_status kernel_ready(gpu_t *g, const char *kernel, unsigned dynamic_shared,
                              gl_status other, CUfunction *f, gl_error *err)
{
    gl_status st = gpu_enter(g, err);
    if (st != GL_OK)
        return st;
    if (!g->module)
        return gl_fail(err, GL_ERR_LAUNCH, "no PTX loaded on the GPU");
    CUresult r = g->p_cuModuleGetFunction(f, g->module, kernel);
    if (r == CUDA_ERROR_NOT_FOUND)
        return gl_fail(err, GL_ERR_LAUNCH,
                       "no kernel named %s in the PTX (C++ kernels need extern \"C\")", kernel);
    if (r != CUDA_SUCCESS)
        return cu_fail(g, other, r, "cuModuleGetFunction", err);
    if (shared_over(g, *f, dynamic_shared, err))
        return GL_ERR_LAUNCH;
    if ((r = opt_in_shared(g, *f, dynamic_shared)) != CUDA_SUCCESS)
        return cu_fail(g, GL_ERR_LAUNCH, r,
                       "cuFuncSetAttribute (dynamic shared memory over 48 KiB)", err);
    return GL_OK;
}

gl_status gpu_launch(gpu_t *g, const char *kernel, const unsigned grid[3], const unsigned block[3],
                     unsigned dynamic_shared, void **params, char **printf_out, double *elapsed_ms,
                     gl_error *err)
{
    if (printf_out)
        *printf_out = NULL;
    if (elapsed_ms)
        *elapsed_ms = 0;
    CUfunction f;
    gl_status st = kernel_ready(g, kernel, dynamic_shared, GL_ERR_CUDA, &f, err);
    if (st != GL_OK)
        return st;
    CUresult r;
    CUevent start = NULL, stop = NULL;
    if ((r = g->p_cuEventCreate(&start, CU_EVENT_DEFAULT)) != CUDA_SUCCESS ||
        (r = g->p_cuEventCreate(&stop, CU_EVENT_DEFAULT)) != CUDA_SUCCESS) {
        st = cu_fail(g, GL_ERR_CUDA, r, "cuEventCreate", err);
        goto out;
    }

    capture cap;
    capture_begin(&cap);
    const char *call = "cuEventRecord";
    r = g->p_cuEventRecord(start, NULL);
    if (r == CUDA_SUCCESS) {
        call = "cuLaunchKernel";
        if (g->cluster[0]) { /* CUDA Driver API cuLaunchKernelEx, cluster dimension */
            CUlaunchAttribute at = {.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION};
            at.value.clusterDim.x = g->cluster[0];
            at.value.clusterDim.y = g->cluster[1];
            at.value.clusterDim.z = g->cluster[2];
            CUlaunchConfig lc = {.gridDimX = grid[0],
                                 .gridDimY = grid[1],
                                 .gridDimZ = grid[2],
                                 .blockDimX = block[0],
                                 .blockDimY = block[1],
                                 .blockDimZ = block[2],
                                 .sharedMemBytes = dynamic_shared,
                                 .attrs = &at,
                                 .numAttrs = 1};
            call = "cuLaunchKernelEx";
            r = g->p_cuLaunchKernelEx ? g->p_cuLaunchKernelEx(&lc, f, params, NULL)
                                      : CUDA_ERROR_NOT_SUPPORTED;
        } else {
            r = g->p_cuLaunchKernel(f, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                    dynamic_shared, NULL, params, NULL);
        }
        if (r == CUDA_SUCCESS) {
            call = "cuEventRecord";
            r = g->p_cuEventRecord(stop, NULL);
        }
        /* Synchronise even after a failed launch, so printf output reaches us. */
        CUresult s = CTX_SYNCHRONIZE(g);
        if (r == CUDA_SUCCESS && s != CUDA_SUCCESS) {
            r = s;
            call = "cuCtxSynchronize";
        }
    }
    char *text = capture_end(&cap);
    if (printf_out)
        *printf_out = text;
    else
        free(text);
    if (r != CUDA_SUCCESS) {
        /* A bad configuration is the launch's fault; anything after it is the kernel's
         * (sticky errors such as CUDA_ERROR_ILLEGAL_ADDRESS leave the context unusable:
         * gpu_close and gpu_open again). */
        int bad_config = strcmp(call, "cuLaunchKernel") == 0 &&
                         (r == CUDA_ERROR_INVALID_VALUE || r == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
        st = cu_fail(g, bad_config ? GL_ERR_LAUNCH : GL_ERR_CUDA, r, call, err);
        goto out;
    }
    float ms = 0;
    if (elapsed_ms && g->p_cuEventElapsedTime(&ms, start, stop) == CUDA_SUCCESS)
        *elapsed_ms = ms;
out:
    if (start)
        g->p_cuEventDestroy(start);
    if (stop)
        g->p_cuEventDestroy(stop);
    return st;
}

gl_status gpu_occupancy(gpu_t *g, const char *kernel, const unsigned block[3],
                        unsigned dynamic_shared, int occ[5], gl_error *err)
{
    memset(occ, 0, 5 * sizeof *occ);
    gl_status st = gpu_enter(g, err);
    if (st != GL_OK)
        return st;
    if (!g->module)
        return gl_fail(err, GL_ERR_LAUNCH, "no PTX loaded on the GPU");
    CUfunction f;
    CUresult r = g->p_cuModuleGetFunction(&f, g->module, kernel);
    if (r != CUDA_SUCCESS)
        return cu_fail(g, GL_ERR_LAUNCH, r, "cuModuleGetFunction", err);
    int v = 0;
    if (g->p_cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f) == CUDA_SUCCESS)
        occ[0] = v;
    if (g->p_cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f) == CUDA_SUCCESS)
        occ[1] = v;
    const int threads = (int)(block[0] * block[1] * block[2]);
    if (shared_over(g, f, dynamic_shared, err))
        return GL_ERR_LAUNCH;
    if ((r = opt_in_shared(g, f, dynamic_shared)) != CUDA_SUCCESS)
        return cu_fail(g, GL_ERR_LAUNCH, r, "cuFuncSetAttribute", err);
    r = g->p_cuOccupancyMaxActiveBlocksPerMultiprocessor(&v, f, threads, dynamic_shared);
    if (r != CUDA_SUCCESS)
        return cu_fail(g, GL_ERR_CUDA, r, "cuOccupancyMaxActiveBlocksPerMultiprocessor", err);
    occ[2] = v;
    occ[3] = attr(g, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    occ[4] = attr(g, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    return GL_OK;
}

/* The scrub kernel: reads n16 16-byte words of buf with ld.global.cg (cached in L2 only)
 * and stores their xor into buf[0] only if it equals a constant, so that the loads stay.
 * PTX 6.0 for sm_50: it JIT-compiles for every GPU gpulearn runs on. */
static const char scrub_ptx[] =
    ".version 6.0\n.target sm_50\n.address_size 64\n"
    ".visible .entry gl_l2_scrub(.param .u64 buf, .param .u64 n16)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [buf];\n  ld.param.u64 %rd2, [n16];\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n  mov.u32 %r3, %tid.x;\n"
    "  mov.u32 %r4, %nctaid.x;\n  mul.wide.u32 %rd3, %r1, %r2;\n  cvt.u64.u32 %rd4, %r3;\n"
    "  add.u64 %rd3, %rd3, %rd4;\n  mul.wide.u32 %rd5, %r4, %r2;\n  mov.b32 %r5, 0;\n"
    "  setp.ge.u64 %p1, %rd3, %rd2;\n  @%p1 bra DONE;\n"
    "LOOP:\n  shl.b64 %rd6, %rd3, 4;\n  add.u64 %rd7, %rd1, %rd6;\n"
    "  ld.global.cg.v4.u32 {%r6, %r7, %r8, %r9}, [%rd7];\n"
    "  xor.b32 %r5, %r5, %r6;\n  xor.b32 %r5, %r5, %r7;\n  xor.b32 %r5, %r5, %r8;\n"
    "  xor.b32 %r5, %r5, %r9;\n  add.u64 %rd3, %rd3, %rd5;\n  setp.lt.u64 %p1, %rd3, %rd2;\n"
    "  @%p1 bra LOOP;\n"
    "DONE:\n  setp.ne.u32 %p2, %r5, 625341585;\n  @%p2 bra END;\n  st.global.u32 [%rd1], %r5;\n"
    "END:\n  ret;\n}\n";

/* Leaves no line of earlier work in the L2 cache before a timed run: reads a buffer of
 * twice the L2's size, so that the lines the run's inputs were copied into (dirty after
 * cuMemcpyHtoD, which write-back costs the next kernel DRAM bandwidth) are written back
 * and evicted outside the timed region. Every timed kernel and library run starts so,
 * as Nsight Compute flushes caches before each measured pass (Nsight Compute
 * Profiling Guide, "Cache Control": --cache-control all). Errors as gpu_launch. */
static gl_status gpu_flush_l2(gpu_t *g, gl_error *err)
{
    CUresult r;
    const char *call = "cuModuleLoadDataEx";
    if (!g->scrub_fn) {
        size_t l2 = (size_t)attr(g, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
        g->scrub_bytes = (2 * (l2 ? l2 : (size_t)64 << 20) + 15) / 16 * 16;
        if ((r = g->p_cuModuleLoadDataEx(&g->scrub_module, scrub_ptx, 0, NULL, NULL)) !=
                CUDA_SUCCESS ||
            (call = "cuModuleGetFunction",
             r = g->p_cuModuleGetFunction(&g->scrub_fn, g->scrub_module, "gl_l2_scrub")) !=
                CUDA_SUCCESS ||
            (call = "cuMemAlloc", r = g->p_cuMemAlloc(&g->scrub_buf, g->scrub_bytes)) !=
                CUDA_SUCCESS) {
            g->scrub_fn = NULL;
            return cu_fail(g, GL_ERR_CUDA, r, call, err);
        }
    }
    uint64_t n16 = g->scrub_bytes / 16;
    void *params[] = {&g->scrub_buf, &n16};
    const unsigned blocks = 4 * (unsigned)(attr(g, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT) | 1);
    call = "cuLaunchKernel";
    if ((r = g->p_cuLaunchKernel(g->scrub_fn, blocks, 1, 1, 256, 1, 1, 0, NULL, params, NULL)) !=
            CUDA_SUCCESS ||
        (call = "cuCtxSynchronize", r = CTX_SYNCHRONIZE(g)) != CUDA_SUCCESS)
        return cu_fail(g, GL_ERR_CUDA, r, call, err);
    return GL_OK;
}

gl_status gpu_time_launch(gpu_t *g, const char *kernel, const unsigned grid[3],
                          const unsigned block[3], unsigned dynamic_shared, void **params,
                          double *elapsed_ms, gl_error *err)
{
    *elapsed_ms = 0;
    CUfunction f;
    gl_status st = kernel_ready(g, kernel, dynamic_shared, GL_ERR_LAUNCH, &f, err);
    if (st != GL_OK)
        return st;
    if ((st = gpu_flush_l2(g, err)) != GL_OK)
        return st;
    CUresult r;
    CUevent start = NULL, stop = NULL;
    const char *call = "cuEventCreate";
    if ((r = g->p_cuEventCreate(&start, CU_EVENT_DEFAULT)) == CUDA_SUCCESS &&
        (r = g->p_cuEventCreate(&stop, CU_EVENT_DEFAULT)) == CUDA_SUCCESS &&
        (call = "cuEventRecord", r = g->p_cuEventRecord(start, NULL)) == CUDA_SUCCESS &&
        (call = "cuLaunchKernel",
         r = g->p_cuLaunchKernel(f, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                 dynamic_shared, NULL, params, NULL)) == CUDA_SUCCESS &&
        (call = "cuEventRecord", r = g->p_cuEventRecord(stop, NULL)) == CUDA_SUCCESS &&
        (call = "cuEventSynchronize", r = g->p_cuEventSynchronize(stop)) == CUDA_SUCCESS) {
        float ms = 0;
        call = "cuEventElapsedTime";
        if ((r = g->p_cuEventElapsedTime(&ms, start, stop)) == CUDA_SUCCESS)
            *elapsed_ms = ms;
    }
    if (r != CUDA_SUCCESS)
        st = cu_fail(g, GL_ERR_CUDA, r, call, err);
    if (start)
        g->p_cuEventDestroy(start);
    if (stop)
        g->p_cuEventDestroy(stop);
    return st;
}

gl_status gpu_time_calls(gpu_t *g, gpu_call_fn fn, void *ctx, double *elapsed_ms, gl_error *err)
{
    *elapsed_ms = 0;
    gl_status st = gpu_enter(g, err);
    if (st != GL_OK)
        return st;
    if ((st = gpu_flush_l2(g, err)) != GL_OK)
        return st;
    CUevent start = NULL, stop = NULL;
    const char *call = "cuEventCreate";
    CUresult r;
    if ((r = g->p_cuEventCreate(&start, CU_EVENT_DEFAULT)) == CUDA_SUCCESS &&
        (r = g->p_cuEventCreate(&stop, CU_EVENT_DEFAULT)) == CUDA_SUCCESS &&
        (call = "cuEventRecord", r = g->p_cuEventRecord(start, NULL)) == CUDA_SUCCESS &&
        (st = fn(ctx, err)) == GL_OK &&
        (call = "cuEventRecord", r = g->p_cuEventRecord(stop, NULL)) == CUDA_SUCCESS &&
        (call = "cuEventSynchronize", r = g->p_cuEventSynchronize(stop)) == CUDA_SUCCESS) {
        float ms = 0;
        call = "cuEventElapsedTime";
        if ((r = g->p_cuEventElapsedTime(&ms, start, stop)) == CUDA_SUCCESS)
            *elapsed_ms = ms;
    }
    if (st == GL_OK && r != CUDA_SUCCESS)
        st = cu_fail(g, GL_ERR_CUDA, r, call, err);
    if (start)
        g->p_cuEventDestroy(start);
    if (stop)
        g->p_cuEventDestroy(stop);
    return st;
}

#else /* !GL_HAVE_CUDA_H: every entry point says how to get a GPU build. */

struct gpu {
    int unused;
};

#define NO_CUDA_H                                                                                  \
    "gpulearn was built without cuda.h: install the CUDA Toolkit (or Debian's "                    \
    "nvidia-cuda-dev) and rebuild"

gl_status gpu_open(gpu_t **out, gl_error *err)
{
    *out = NULL;
    return gl_fail(err, GL_ERR_NODEVICE, NO_CUDA_H);
}

void gpu_close(gpu_t *g)
{
    (void)g;
}

gl_status gpu_device_info(gpu_t *g, gl_device_info *info, gl_error *err)
{
    (void)g;
    memset(info, 0, sizeof *info);
    return gl_fail(err, GL_ERR_NODEVICE, NO_CUDA_H);
}

gl_status gpu_load_ptx(gpu_t *g, const char *ptx, gl_error *err)
{
    (void)g, (void)ptx;
    return gl_fail(err, GL_ERR_NODEVICE, NO_CUDA_H);
}

gl_status gpu_malloc(gpu_t *g, size_t bytes, uint64_t *dptr, gl_error *err)
{
    (void)g, (void)bytes;
    *dptr = 0;
    return gl_fail(err, GL_ERR_NODEVICE, NO_CUDA_H);
}

gl_status gpu_htod(gpu_t *g, uint64_t dst, const void *src, size_t bytes, gl_error *err)
{
    (void)g, (void)dst, (void)src, (void)bytes;
    return gl_fail(err, GL_ERR_NODEVICE, NO_CUDA_H);
}

gl_status gpu_dtoh(gpu_t *g, void *dst, uint64_t src, size_t bytes, gl_error *err)
{
    (void)g, (void)dst, (void)src, (void)bytes;
    return gl_fail(err, GL_ERR_NODEVICE, NO_CUDA_H);
}

gl_status gpu_launch(gpu_t *g, const char *kernel, const unsigned grid[3], const unsigned block[3],
                     unsigned dynamic_shared, void **params, char **printf_out, double *elapsed_ms,
                     gl_error *err)
{
    (void)g, (void)kernel, (void)grid, (void)block, (void)dynamic_shared, (void)params;
    if (printf_out)
        *printf_out = NULL;
    if (elapsed_ms)
        *elapsed_ms = 0;
    return gl_fail(err, GL_ERR_NODEVICE, NO_CUDA_H);
}

void gpu_set_cluster(gpu_t *g, const unsigned cluster[3])
{
    (void)g, (void)cluster;
}

gl_status gpu_occupancy(gpu_t *g, const char *kernel, const unsigned block[3],
                        unsigned dynamic_shared, int occ[5], gl_error *err)
{
    (void)g, (void)kernel, (void)block, (void)dynamic_shared;
    memset(occ, 0, 5 * sizeof *occ);
    return gl_fail(err, GL_ERR_NODEVICE, NO_CUDA_H);
}

gl_status gpu_time_launch(gpu_t *g, const char *kernel, const unsigned grid[3],
                          const unsigned block[3], unsigned dynamic_shared, void **params,
                          double *elapsed_ms, gl_error *err)
{
    (void)g, (void)kernel, (void)grid, (void)block, (void)dynamic_shared, (void)params;
    *elapsed_ms = 0;
    return gl_fail(err, GL_ERR_NODEVICE, NO_CUDA_H);
}

gl_status gpu_time_calls(gpu_t *g, gpu_call_fn fn, void *ctx, double *elapsed_ms, gl_error *err)
{
    (void)g, (void)fn, (void)ctx;
    *elapsed_ms = 0;
    return gl_fail(err, GL_ERR_NODEVICE, NO_CUDA_H);
}

#endif
