/* cudart.c — gpulearn's CUDA runtime: the library a whole program (`gpulearn run
 * PROG.cu`) links instead of NVIDIA's libcudart. It provides the registration entry
 * points clang's host code calls (__cudaRegisterFatBinary ... cudaLaunchKernel) and the
 * runtime API subset courses use, with NVIDIA's semantics and error codes (CUDA Runtime
 * API reference; codes as driver_types.h numbers them). Kernels run in this process on
 * the simulator (sim/), with its checkers; device memory is the simulator's address
 * space, so a host pointer given to a kernel faults. gpulearn's own messages go to
 * stderr prefixed "gpulearn:". Layer: cudart -> sim -> trace (docs/architecture.md
 * "Whole programs"). Settings come from the environment gpulearn sets:
 * GPULEARN_PROG_ARCH (the device profile, default the simulator's), GPULEARN_PROG_SCHEDULE
 * ("random:SEED"), GPULEARN_PROG_NAME (the program's name in messages).
 */
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cudart/include/gpulearn_device_prop.h"
#include "sim/sim.h"

/* ------------------------------------------------------------------ types */

/* cudaError_t codes (driver_types.h) and cudaMemcpyKind. */
enum {
    E_OK = 0,
    E_INVALID_VALUE = 1,
    E_MEMORY_ALLOCATION = 2,
    E_INVALID_CONFIGURATION = 9,
    E_INVALID_PITCH_VALUE = 12,
    E_INVALID_SYMBOL = 13,
    E_INVALID_MEMCPY_DIRECTION = 21,
    E_INVALID_DEVICE_FUNCTION = 98,
    E_INVALID_DEVICE = 101,
    E_INVALID_KERNEL_IMAGE = 200,
    E_INVALID_RESOURCE_HANDLE = 400,
    E_ILLEGAL_ADDRESS = 700,
    E_LAUNCH_TIMEOUT = 702,
    E_ASSERT = 710,
    E_MISALIGNED = 716,
    E_LAUNCH_FAILURE = 719,
};
enum { K_HTOH, K_HTOD, K_DTOH, K_DTOD, K_DEFAULT };

typedef int cudaError_t;
/* dim3 as the compilers pass it by value: three unsigned, x first. */
typedef struct cr_dim3 {
    unsigned x, y, z;
} cr_dim3;

/* NVIDIA's name and string of each code gpulearn returns (libcudart's texts). */
static const struct {
    int code;
    const char *name, *text;
} cr_errors[] = {
    {0, "cudaSuccess", "no error"},
    {1, "cudaErrorInvalidValue", "invalid argument"},
    {2, "cudaErrorMemoryAllocation", "out of memory"},
    {3, "cudaErrorInitializationError", "initialization error"},
    {4, "cudaErrorCudartUnloading", "driver shutting down"},
    {9, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {12, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {13, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {17, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {21, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {98, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {100, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {101, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {200, "cudaErrorInvalidKernelImage", "device kernel image is invalid"},
    {209, "cudaErrorNoKernelImageForDevice",
     "no kernel image is available for execution on the device"},
    {400, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {500, "cudaErrorSymbolNotFound", "named symbol not found"},
    {600, "cudaErrorNotReady", "device not ready"},
    {700, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {701, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {702, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {710, "cudaErrorAssert", "device-side assert triggered"},
    {716, "cudaErrorMisalignedAddress", "misaligned address"},
    {719, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {800, "cudaErrorNotPermitted", "operation not permitted"},
    {801, "cudaErrorNotSupported", "operation not supported"},
    {999, "cudaErrorUnknown", "unknown error"},
};

/* One registered fat binary: its PTX, parsed on first use. */
typedef struct cr_module {
    const char *ptx; /* NUL-terminated, in the program's image */
    ptx_module_t *mod;
} cr_module;

/* A kernel: the host stub's address and the .entry name. */
typedef struct cr_func {
    const void *stub;
    int module;
    const char *name;
    int max_dynamic; /* cudaFuncAttributeMaxDynamicSharedMemorySize; -1: not set (48 KiB
                        less the static shared memory) */
} cr_func;

/* A __device__ or __constant__ variable: its host shadow's address and PTX name. */
typedef struct cr_var {
    const void *host;
    int module;
    const char *name;
} cr_var;

/* A device, managed or pinned host allocation of the program. */
typedef struct cr_alloc {
    uint64_t ptr;
    size_t bytes;
    int kind; /* 0 cudaMalloc, 1 cudaMallocManaged, 2 cudaMallocHost/HostAlloc */
    unsigned number;
    char name[64];  /* the label the simulator knows it by: the host variable or
                       "allocation #N" */
    char where[96]; /* "vector_add.cu:34" where it was allocated, or "" */
} cr_alloc;

/* An event: the modelled device time when it was recorded. */
typedef struct cr_event {
    double ns;
    int recorded;
} cr_event;

/* The process's runtime state (one device, one context). */
static struct {
    int init;
    sim_t *sim;
    const sim_device_model *dev;
    const char *prog;
    cudaError_t last;   /* the last error, cleared by cudaGetLastError */
    cudaError_t sticky; /* a kernel fault, once a synchronising call returned it */
    cudaError_t fault;  /* a kernel fault not yet reported by a synchronising call */
    char *out;          /* device printf output not yet written (at the next sync) */
    size_t out_len;
    double now_ns; /* the modelled device clock */
    int timing_noted;
    cr_module *mods;
    int nmods;
    cr_func *funcs;
    int nfuncs;
    cr_var *vars;
    int nvars;
    cr_alloc *allocs;
    int nallocs;
    unsigned alloc_count;
    struct {
        cr_dim3 grid, block;
        size_t shared;
        void *stream;
    } cfg[8];
    int ncfg;
} G;

/* ------------------------------------------------------------------ helpers */

static void cr_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A message of gpulearn's on stderr, prefixed "gpulearn: ". */
static void cr_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout);
    fputs("gpulearn: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ------------------------------------------------------------------ sandbox */

/* In gpulearn's sandbox (GPULEARN_PROG_SANDBOX, runtime/sandbox.h gl_sandbox_opts.program)
 * a forbidden system call raises SIGSYS (seccomp's trap; seccomp(2): si_syscall holds
 * its number). This handler says on stderr which call it was, then ends the program by
 * that signal, which gpulearn reports too. Async-signal-safe but for the fflush of
 * stdout (the signal comes from the program's own system call, never from inside
 * stdio), so that what the program printed before is not lost. */
static void cr_on_sigsys(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    static const struct {
        long nr;
        const char *name, *what;
    } calls[] = {
        {SYS_fork, "fork", "start a process: a sandboxed program may not"},
        {SYS_vfork, "vfork", "start a process: a sandboxed program may not"},
        {SYS_clone, "clone",
         "start a process (fork, posix_spawn, system): a sandboxed program "
         "may not"},
        {SYS_socket, "socket", "open a socket: a sandboxed program has no network"},
        {SYS_socketpair, "socketpair", "open a socket: a sandboxed program has no network"},
        {SYS_ptrace, "ptrace", "trace a process: a sandboxed program may not"},
    };
    const char *name = "a system call", *what = "make a system call a sandboxed program may not";
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
        if (calls[i].nr == si->si_syscall)
            name = calls[i].name, what = calls[i].what;
    fflush(stdout);
    char msg[512];
    const int n =
        snprintf(msg, sizeof msg, "gpulearn: %s called %s (system call %d) to %s: stopped\n",
                 G.prog ? G.prog : "the program", name, si->si_syscall, what);
    if (n > 0 && write(2, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1) < 0)
        msg[0] = '\0';
    signal(sig, SIG_DFL);
    raise(sig);
}

/* At the program's start, in the sandbox only: the SIGSYS handler. */
__attribute__((constructor)) static void cr_sandbox_start(void)
{
    const char *s = getenv("GPULEARN_PROG_SANDBOX");
    if (!s || strcmp(s, "1") != 0)
        return;
    G.prog = getenv("GPULEARN_PROG_NAME");
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = cr_on_sigsys;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSYS, &sa, NULL);
}

static const char *err_name(cudaError_t e)
{
    for (size_t i = 0; i < sizeof cr_errors / sizeof cr_errors[0]; i++)
        if (cr_errors[i].code == e)
            return cr_errors[i].name;
    return "cudaErrorUnknown";
}

/* Writes the device printf output kept so far to stdout (CUDA C++ Programming Guide,
 * "Formatted Output": flushed at launches and synchronising calls). */
static void flush_printf(void)
{
    if (G.out_len)
        fwrite(G.out, 1, G.out_len, stdout);
    free(G.out);
    G.out = NULL;
    G.out_len = 0;
}

/* At exit: device printf written; device memory never freed reported, as
 * compute-sanitizer's leak check does. */
static void at_exit(void)
{
    flush_printf();
    fflush(stdout);
    int leaks = 0;
    size_t bytes = 0;
    for (int i = 0; i < G.nallocs; i++)
        if (G.allocs[i].kind != 2)
            leaks++, bytes += G.allocs[i].bytes;
    if (!leaks)
        return;
    cr_note("note: %d device allocation%s (%zu bytes) never freed with cudaFree:", leaks,
            leaks == 1 ? "" : "s", bytes);
    for (int i = 0, shown = 0; i < G.nallocs && shown < 5; i++)
        if (G.allocs[i].kind != 2) {
            shown++;
            cr_note("  '%s' (%zu bytes%s%s)", G.allocs[i].name, G.allocs[i].bytes,
                    G.allocs[i].where[0] ? ", " : "", G.allocs[i].where);
        }
}

/* Starts the simulator on the first call (the device profile of GPULEARN_PROG_ARCH). */
static int cr_init(void)
{
    if (G.init)
        return G.sim ? 0 : -1;
    G.init = 1;
    const char *arch = getenv("GPULEARN_PROG_ARCH");
    G.dev = arch && *arch ? sim_device_find(arch) : NULL;
    if (!G.dev)
        G.dev = sim_device();
    G.prog = getenv("GPULEARN_PROG_NAME");
    if (!G.prog || !*G.prog)
        G.prog = "the program";
    sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.device = G.dev;
    const char *sch = getenv("GPULEARN_PROG_SCHEDULE");
    if (sch && strncmp(sch, "random:", 7) == 0) {
        cfg.schedule_random = 1;
        cfg.schedule_seed = strtoull(sch + 7, NULL, 10);
    }
    G.sim = sim_new(&cfg);
    atexit(at_exit);
    if (!G.sim) {
        cr_note("out of memory starting the simulator");
        return -1;
    }
    return 0;
}

/* Records e as the last error (cudaGetLastError) and returns it. */
static cudaError_t ret(cudaError_t e)
{
    if (e != E_OK)
        G.last = e;
    return e;
}

/* A synchronising call's start: device printf written, a kernel fault turned sticky. */
static cudaError_t sync_point(void)
{
    if (cr_init() != 0)
        return E_MEMORY_ALLOCATION;
    flush_printf();
    if (G.fault) {
        G.sticky = G.fault;
        G.fault = E_OK;
    }
    return G.sticky;
}

static cr_alloc *find_alloc(uint64_t p, int kind)
{
    for (int i = 0; i < G.nallocs; i++)
        if (G.allocs[i].ptr == p && (kind < 0 || G.allocs[i].kind == kind))
            return &G.allocs[i];
    return NULL;
}

/* The device or managed allocation holding [p, p+n), or NULL; *inside: 1 when p lies in
 * one but the range passes its end. */
static cr_alloc *device_range(uint64_t p, size_t n, int *inside)
{
    *inside = 0;
    for (int i = 0; i < G.nallocs; i++) {
        cr_alloc *a = &G.allocs[i];
        if (a->kind == 2 || p < a->ptr || p - a->ptr >= (a->bytes ? a->bytes : 1))
            continue;
        if (n <= a->bytes - (p - a->ptr))
            return a;
        *inside = 1;
        return NULL;
    }
    return NULL;
}

static int add_alloc(uint64_t p, size_t bytes, int kind, const char *name, const char *where)
{
    cr_alloc *na = realloc(G.allocs, (size_t)(G.nallocs + 1) * sizeof *na);
    if (!na)
        return -1;
    G.allocs = na;
    cr_alloc *a = &G.allocs[G.nallocs++];
    memset(a, 0, sizeof *a);
    a->ptr = p;
    a->bytes = bytes;
    a->kind = kind;
    a->number = ++G.alloc_count;
    snprintf(a->name, sizeof a->name, "%s", name ? name : "");
    snprintf(a->where, sizeof a->where, "%s", where ? where : "");
    return 0;
}

/* The host variable a cudaMalloc call at file:line assigns ("d_a" of
 * `cudaMalloc(&d_a, n)` or `cudaMalloc((void **)&d_a, n)`), read from the source, into
 * name; 0 when the line cannot be read or holds no such call. */
static int alloc_variable(const char *file, int line, char *name, size_t n)
{
    FILE *f = file ? fopen(file, "r") : NULL;
    if (!f)
        return 0;
    char buf[1024];
    int at = 0, found = 0;
    while (fgets(buf, sizeof buf, f))
        if (++at == line)
            break;
    fclose(f);
    const char *p = at == line ? strstr(buf, "cudaMalloc") : NULL;
    if (p && (p = strchr(p, '(')) != NULL) {
        p++;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '(') /* a cast: (void **) */
            p = strchr(p, ')') ? strchr(p, ')') + 1 : p;
        while (*p == ' ' || *p == '&' || *p == '(')
            p++;
        size_t k = 0;
        while (k + 1 < n &&
               (p[k] == '_' || p[k] == '.' || (p[k] >= 'a' && p[k] <= 'z') ||
                (p[k] >= 'A' && p[k] <= 'Z') || (k && p[k] >= '0' && p[k] <= '9') ||
                (p[k] == '-' && p[k + 1] == '>') || (k && p[k] == '>' && p[k - 1] == '-')))
            k++;
        if (k > 0) {
            snprintf(name, n, "%.*s", (int)k, p);
            found = 1;
        }
    }
    return found;
}

/* The simulator's label and the place of a new allocation from file:line (NULL: none). */
static void alloc_label(const char *file, int line, char *name, size_t n, char *where, size_t wn)
{
    where[0] = '\0';
    if (file && line > 0) {
        const char *base = strrchr(file, '/');
        snprintf(where, wn, "%s:%d", base ? base + 1 : file, line);
    }
    if (!alloc_variable(file, line, name, n))
        snprintf(name, n, "allocation #%u", G.alloc_count + 1);
}

static void drop_alloc(cr_alloc *a)
{
    *a = G.allocs[--G.nallocs];
}

/* Whether p lies in memory mapped in this process (a host pointer). */
static int host_mapped(uint64_t p)
{
    const long page = sysconf(_SC_PAGESIZE);
    void *base = (void *)(uintptr_t)(p & ~(uint64_t)(page - 1));
    return p >= 4096 && msync(base, (size_t)page, MS_ASYNC) == 0;
}

/* The parsed module of registered fat binary i (parsed on first use); NULL with a message
 * when the simulator cannot load it. */
static ptx_module_t *module_of(int i)
{
    cr_module *m = &G.mods[i];
    if (!m->mod) {
        char *diag = NULL;
        if (ptx_parse(m->ptx, strlen(m->ptx), G.prog, &m->mod, &diag) != SIM_OK) {
            cr_note("the simulator cannot load %s's device code:\n%s", G.prog,
                    diag ? diag : "(no details)");
            free(diag);
            return NULL;
        }
    }
    return m->mod;
}

/* Advances the modelled device clock (cudaEventElapsedTime) by d ns. */
static void model(double d)
{
    G.now_ns += d;
}

/* ------------------------------------------------------------ registration */

/* The wrapper clang and nvcc put around the device code (__fatbinwrap): a magic number,
 * a version and the device code; gpulearn's compile step makes it "GLPTX" + NUL-terminated
 * PTX text. */
typedef struct cr_fatbin_wrapper {
    int magic, version;
    const char *data;
    void *unused;
} cr_fatbin_wrapper;

#define CR_PTX_MAGIC "GLPTX\n"

/* The PTX of an NVIDIA fat binary (nvcc's, compiled with -gencode code=compute_XX and
 * -Xfatbin --compress=false), as a malloc'd NUL-terminated copy; NULL when it has none
 * uncompressed. The layout (not documented by NVIDIA; as the Toolkit's fatbinary writes
 * it): a 16-byte header (magic 0xBA55ED50, u16 version, u16 header size, u64 size of the
 * entries), then entries of u16 kind (1 PTX, 2 ELF), u16 version, u32 header size, u64
 * payload size, ..., u64 flags at +40 (0x8000: compressed); the payload after the
 * entry's header. */
static char *fatbin_ptx(const unsigned char *f)
{
    uint32_t magic;
    uint16_t hsize;
    uint64_t total;
    memcpy(&magic, f, 4);
    memcpy(&hsize, f + 6, 2);
    memcpy(&total, f + 8, 8);
    if (magic != 0xBA55ED50u || total > ((uint64_t)1 << 32))
        return NULL;
    for (uint64_t off = hsize; off + 48 <= hsize + total;) {
        const unsigned char *e = f + off;
        uint16_t kind;
        uint32_t ehdr;
        uint64_t psize, flags;
        memcpy(&kind, e, 2);
        memcpy(&ehdr, e + 4, 4);
        memcpy(&psize, e + 8, 8);
        memcpy(&flags, e + 40, 8);
        if (ehdr < 48 || psize > total)
            return NULL;
        if (kind == 1 && !(flags & 0x8000)) {
            char *ptx = malloc(psize + 1);
            if (ptx) {
                memcpy(ptx, e + ehdr, psize);
                ptx[psize] = '\0';
            }
            return ptx;
        }
        off += ehdr + psize;
    }
    return NULL;
}

/* Registers one translation unit's device code (gpulearn's "GLPTX" wrapper from clang,
 * or nvcc's fat binary with PTX); the handle is its index + 1. */
void **__cudaRegisterFatBinary(void *fat);
void **__cudaRegisterFatBinary(void *fat)
{
    const cr_fatbin_wrapper *w = fat;
    const char *ptx = NULL;
    if (w && w->data && strncmp(w->data, CR_PTX_MAGIC, strlen(CR_PTX_MAGIC)) == 0)
        ptx = w->data + strlen(CR_PTX_MAGIC);
    else if (w && w->data)
        ptx = fatbin_ptx((const unsigned char *)w->data);
    if (!ptx) {
        cr_note("this program's device code has no PTX gpulearn can read: compile it with "
                "`gpulearn run PROG.cu`");
        exit(2);
    }
    cr_module *nm = realloc(G.mods, (size_t)(G.nmods + 1) * sizeof *nm);
    if (!nm) {
        cr_note("out of memory registering the device code");
        exit(2);
    }
    G.mods = nm;
    G.mods[G.nmods].ptx = ptx;
    G.mods[G.nmods].mod = NULL;
    G.nmods++;
    return (void **)(uintptr_t)G.nmods;
}

/* nvcc (CUDA 12.8 and later): the module is ready (1) once registered. */
char __cudaInitModule(void **handle);
char __cudaInitModule(void **handle)
{
    (void)handle;
    return 1;
}

/* nvcc (CUDA 13): a kernel's handle for __cudaLaunchKernel is its host stub's address. */
cudaError_t __cudaGetKernel(const void **kernel, const void *stub);
cudaError_t __cudaGetKernel(const void **kernel, const void *stub)
{
    *kernel = stub;
    return E_OK;
}

/* The end of a translation unit's registrations (CUDA 10.1 and later); nothing to do. */
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterFatBinaryEnd(void **handle)
{
    (void)handle;
}

/* At exit: the module's parse freed. */
void __cudaUnregisterFatBinary(void **handle);
void __cudaUnregisterFatBinary(void **handle)
{
    const int i = (int)(uintptr_t)handle - 1;
    if (i >= 0 && i < G.nmods && G.mods[i].mod) {
        ptx_module_free(G.mods[i].mod);
        G.mods[i].mod = NULL;
    }
}

/* A kernel: host stub `stub` launches .entry `name` of the handle's module. */
void __cudaRegisterFunction(void **handle, const char *stub, char *device_fun, const char *name,
                            int thread_limit, void *tid, void *bid, void *bdim, void *gdim,
                            int *wsize);
void __cudaRegisterFunction(void **handle, const char *stub, char *device_fun, const char *name,
                            int thread_limit, void *tid, void *bid, void *bdim, void *gdim,
                            int *wsize)
{
    (void)device_fun, (void)thread_limit, (void)tid, (void)bid, (void)bdim, (void)gdim, (void)wsize;
    cr_func *nf = realloc(G.funcs, (size_t)(G.nfuncs + 1) * sizeof *nf);
    if (!nf)
        return;
    G.funcs = nf;
    G.funcs[G.nfuncs++] = (cr_func){stub, (int)(uintptr_t)handle - 1, name, -1};
}

/* A __device__ or __constant__ variable: host shadow `host`, PTX name `name`. */
void __cudaRegisterVar(void **handle, char *host, char *device_addr, const char *name, int ext,
                       size_t size, int constant, int global);
void __cudaRegisterVar(void **handle, char *host, char *device_addr, const char *name, int ext,
                       size_t size, int constant, int global)
{
    (void)device_addr, (void)ext, (void)size, (void)constant, (void)global;
    cr_var *nv = realloc(G.vars, (size_t)(G.nvars + 1) * sizeof *nv);
    if (!nv)
        return;
    G.vars = nv;
    G.vars[G.nvars++] = (cr_var){host, (int)(uintptr_t)handle - 1, name};
}

/* <<<grid, block, shared, stream>>>: the configuration the next stub call pops. */
unsigned __cudaPushCallConfiguration(cr_dim3 grid, cr_dim3 block, size_t shared, void *stream);
unsigned __cudaPushCallConfiguration(cr_dim3 grid, cr_dim3 block, size_t shared, void *stream)
{
    if (G.ncfg == 8)
        return 1;
    G.cfg[G.ncfg].grid = grid;
    G.cfg[G.ncfg].block = block;
    G.cfg[G.ncfg].shared = shared;
    G.cfg[G.ncfg].stream = stream;
    G.ncfg++;
    return 0;
}

/* The kernel stub takes the configuration <<<>>> pushed. 0, or 1 when none was. */
int __cudaPopCallConfiguration(cr_dim3 *grid, cr_dim3 *block, size_t *shared, void *stream);
int __cudaPopCallConfiguration(cr_dim3 *grid, cr_dim3 *block, size_t *shared, void *stream)
{
    if (G.ncfg == 0)
        return 1;
    G.ncfg--;
    *grid = G.cfg[G.ncfg].grid;
    *block = G.cfg[G.ncfg].block;
    *shared = G.cfg[G.ncfg].shared;
    *(void **)stream = G.cfg[G.ncfg].stream;
    return 0;
}

/* The old launch API's configuration call (clang's device-side parse names it). */
cudaError_t cudaConfigureCall(cr_dim3 grid, cr_dim3 block, size_t shared, void *stream);
cudaError_t cudaConfigureCall(cr_dim3 grid, cr_dim3 block, size_t shared, void *stream)
{
    return __cudaPushCallConfiguration(grid, block, shared, stream) ? E_INVALID_VALUE : E_OK;
}

/* ------------------------------------------------------------------ errors */

/* CUDA Runtime API §6.3 "Error Handling". */
cudaError_t cudaGetLastError(void);
cudaError_t cudaGetLastError(void)
{
    /* the last error any call returned, once: after a kernel's fault the calls keep
     * returning it (sticky), but cudaGetLastError gives it once and then cudaSuccess,
     * as an H200 with CUDA 13 does (tests/programs/oob_write.cu) */
    cudaError_t e = G.last;
    G.last = E_OK;
    return e;
}

cudaError_t cudaPeekAtLastError(void);
cudaError_t cudaPeekAtLastError(void)
{
    return G.last;
}

const char *cudaGetErrorString(cudaError_t e);
const char *cudaGetErrorString(cudaError_t e)
{
    for (size_t i = 0; i < sizeof cr_errors / sizeof cr_errors[0]; i++)
        if (cr_errors[i].code == e)
            return cr_errors[i].text;
    return "unrecognized error code";
}

const char *cudaGetErrorName(cudaError_t e);
const char *cudaGetErrorName(cudaError_t e)
{
    for (size_t i = 0; i < sizeof cr_errors / sizeof cr_errors[0]; i++)
        if (cr_errors[i].code == e)
            return cr_errors[i].name;
    return "unrecognized error code";
}

/* ------------------------------------------------------------------ launches */

/* What a fault of kind k makes the next synchronising call return. */
static cudaError_t fault_kind_error(sim_fault_kind k)
{
    switch (k) {
    case SIM_FAULT_OUT_OF_BOUNDS: return E_ILLEGAL_ADDRESS;
    case SIM_FAULT_MISALIGNED: return E_MISALIGNED;
    case SIM_FAULT_TRAP: return E_LAUNCH_FAILURE;
    case SIM_FAULT_STEP_LIMIT:
    case SIM_FAULT_DEADLOCK: return E_LAUNCH_TIMEOUT;
    default: return E_LAUNCH_FAILURE;
    }
}

/* What fault f makes the next synchronising call return: a failed assert() is
 * cudaErrorAssert, a trap cudaErrorLaunchFailure. */
static cudaError_t fault_error(const sim_fault *f)
{
    if (f->kind == SIM_FAULT_TRAP && strncmp(f->message, "assertion", 9) == 0)
        return E_ASSERT;
    return fault_kind_error(f->kind);
}

/* The C++ ABI's demangler (libstdc++ or libc++, which the program links as C++). */
char *__cxa_demangle(const char *name, char *buf, size_t *len, int *status) __attribute__((weak));

/* A kernel's name as written in the source ("write_past(int*, int)"), into buf. */
static const char *kernel_name(const char *mangled, char *buf, size_t n)
{
    int status = -1;
    char *d = __cxa_demangle ? __cxa_demangle(mangled, NULL, NULL, &status) : NULL;
    snprintf(buf, n, "%s", d && status == 0 ? d : mangled);
    free(d);
    return buf;
}

/* A source path relative to the working folder when it lies under it. */
static const char *rel_path(const char *path)
{
    char cwd[4096];
    size_t k;
    if (path && getcwd(cwd, sizeof cwd) && (k = strlen(cwd)) > 0 && strncmp(path, cwd, k) == 0 &&
        path[k] == '/')
        return path + k + 1;
    return path;
}

/* A launch's fault and checker findings, on stderr. */
static void report(const cr_func *f, cr_dim3 g, cr_dim3 b, const sim_result *r)
{
    const sim_fault *ft = &r->fault;
    char name[512];
    kernel_name(f->name, name, sizeof name);
    if (ft->kind != SIM_FAULT_NONE) {
        cr_note("kernel %s<<<(%u,%u,%u), (%u,%u,%u)>>> stopped: %s", name, g.x, g.y, g.z, b.x, b.y,
                b.z, ft->message);
        if (ft->src_file)
            cr_note("  at %s:%d, block (%u,%u,%u), thread (%u,%u,%u)", rel_path(ft->src_file),
                    ft->src_line, ft->block[0], ft->block[1], ft->block[2], ft->thread[0],
                    ft->thread[1], ft->thread[2]);
        else
            cr_note("  in block (%u,%u,%u), thread (%u,%u,%u)", ft->block[0], ft->block[1],
                    ft->block[2], ft->thread[0], ft->thread[1], ft->thread[2]);
        for (int i = 0; ft->near.bytes && i < G.nallocs; i++)
            if (strcmp(G.allocs[i].name, ft->near.name) == 0 && G.allocs[i].bytes == ft->near.bytes)
                cr_note("  '%s' is allocation #%u (%zu bytes%s%s)", G.allocs[i].name,
                        G.allocs[i].number, G.allocs[i].bytes, G.allocs[i].where[0] ? ", " : "",
                        G.allocs[i].where);
        if (ft->kind == SIM_FAULT_OUT_OF_BOUNDS && ft->near.bytes == 0 && host_mapped(ft->address))
            cr_note("  0x%llx is host memory (malloc, the stack or a global of the program), "
                    "not device memory: a kernel can only use pointers from cudaMalloc or "
                    "cudaMallocManaged",
                    (unsigned long long)ft->address);
        const cudaError_t e = fault_error(ft);
        cr_note("  the next synchronising call returns %s (\"%s\"), as on a GPU", err_name(e),
                cudaGetErrorString(e));
    }
    for (int i = 0; i < r->nfindings; i++) {
        const sim_finding *x = &r->findings[i];
        if (x->kind == SIM_FIND_OUT_OF_BOUNDS || x->kind == SIM_FIND_MISALIGNED ||
            x->kind == SIM_FIND_DEADLOCK || x->kind == SIM_FIND_STEP_LIMIT ||
            x->kind == SIM_FIND_OTHER)
            continue;
        cr_note("%s in kernel %s: %s", x->is_error ? "error" : "warning", name, x->message);
    }
}

/* Runs kernel `func` on the simulator, synchronously (§6.8 cudaLaunchKernel). */
cudaError_t cudaLaunchKernel(const void *func, cr_dim3 grid, cr_dim3 block, void **args,
                             size_t shared, void *stream);
cudaError_t cudaLaunchKernel(const void *func, cr_dim3 grid, cr_dim3 block, void **args,
                             size_t shared, void *stream)
{
    (void)stream;
    if (cr_init() != 0)
        return ret(E_MEMORY_ALLOCATION);
    flush_printf();
    if (G.sticky)
        return ret(G.sticky);
    const cr_func *f = NULL;
    for (int i = 0; i < G.nfuncs && !f; i++)
        if (G.funcs[i].stub == func)
            f = &G.funcs[i];
    if (!f)
        return ret(E_INVALID_DEVICE_FUNCTION);
    const sim_device_model *d = G.dev;
    const uint64_t threads = (uint64_t)block.x * block.y * block.z;
    /* every illegal configuration is cudaErrorInvalidValue, as an H200 with CUDA 13 gives
     * it (tests/programs/launch_config.cu: too many threads, a dimension past its limit,
     * an empty block or grid; older runtimes said cudaErrorInvalidConfiguration) */
    if (threads == 0 || threads > (uint64_t)d->max_threads_per_block ||
        block.x > (unsigned)d->max_block_dim[0] || block.y > (unsigned)d->max_block_dim[1] ||
        block.z > (unsigned)d->max_block_dim[2] || grid.x == 0 || grid.y == 0 || grid.z == 0 ||
        grid.x > d->max_grid_dim[0] || grid.y > d->max_grid_dim[1] || grid.z > d->max_grid_dim[2])
        return ret(E_INVALID_VALUE);
    ptx_module_t *m = module_of(f->module);
    if (!m)
        return ret(E_INVALID_KERNEL_IMAGE);
    /* dynamic shared memory past 48 KiB needs the kernel's opt-in (CUDA C++ Programming
     * Guide, "Shared Memory" of compute capability 7.x and later) */
    const size_t stat = ptx_entry_shared_bytes(m, f->name);
    const size_t dyn_max = f->max_dynamic >= 0                ? (size_t)f->max_dynamic
                           : d->shared_bytes_per_block > stat ? d->shared_bytes_per_block - stat
                                                              : 0;
    if (shared > dyn_max) {
        char name[512];
        cr_note("kernel %s not launched: %zu bytes of dynamic shared memory, more than the %zu "
                "it may have%s; the launch returns cudaErrorInvalidValue",
                kernel_name(f->name, name, sizeof name), shared, dyn_max,
                f->max_dynamic >= 0
                    ? ""
                    : " (past 48 KiB, a kernel opts in with cudaFuncSetAttribute("
                      "kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes))");
        return ret(E_INVALID_VALUE);
    }
    const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    sim_result r;
    sim_status st = sim_launch(G.sim, m, f->name, g, b, (unsigned)shared, args, &r);
    if (st == SIM_ERR_LAUNCH || st == SIM_ERR_NOT_FOUND || st == SIM_ERR_NOMEM) {
        char name[512];
        cr_note("kernel %s not launched: %s", kernel_name(f->name, name, sizeof name),
                r.fault.message);
        sim_result_free(&r);
        return ret(st == SIM_ERR_NOMEM ? E_MEMORY_ALLOCATION : E_INVALID_VALUE);
    }
    report(f, grid, block, &r);
    if (r.fault.kind != SIM_FAULT_NONE)
        G.fault = fault_error(&r.fault);
    if (r.printf_len) {
        char *no = realloc(G.out, G.out_len + r.printf_len);
        if (no) {
            memcpy(no + G.out_len, r.printf_out, r.printf_len);
            G.out = no;
            G.out_len += r.printf_len;
        }
    }
    /* modelled time: a launch's overhead, then its warp instructions issued by the
     * device's SMs, four warps a clock each */
    model(3000.0 + (double)r.stats.warp_instructions / (4.0 * d->sm_count) * 1000.0 / d->clock_mhz);
    sim_result_free(&r);
    return E_OK;
}

/* nvcc's launch (CUDA 13: crt/host_runtime.h __cudaLaunch), with __cudaGetKernel's
 * handle; _ptsz: the per-thread default stream, the same here. */
cudaError_t __cudaLaunchKernel(const void *kernel, cr_dim3 grid, cr_dim3 block, void **args,
                               size_t shared, void *stream);
cudaError_t __cudaLaunchKernel(const void *kernel, cr_dim3 grid, cr_dim3 block, void **args,
                               size_t shared, void *stream)
{
    return cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}

cudaError_t __cudaLaunchKernel_ptsz(const void *kernel, cr_dim3 grid, cr_dim3 block, void **args,
                                    size_t shared, void *stream);
cudaError_t __cudaLaunchKernel_ptsz(const void *kernel, cr_dim3 grid, cr_dim3 block, void **args,
                                    size_t shared, void *stream)
{
    return cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}

/* cudaFuncSetAttribute (§6.8): the dynamic shared memory a kernel may have
 * (cudaFuncAttributeMaxDynamicSharedMemorySize, 8, up to the device's opt-in maximum less
 * its static shared memory) and the carveout hint (9, accepted, no effect). */
cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value);
cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value)
{
    if (cr_init() != 0)
        return ret(E_MEMORY_ALLOCATION);
    cr_func *f = NULL;
    for (int i = 0; i < G.nfuncs && !f; i++)
        if (G.funcs[i].stub == func)
            f = &G.funcs[i];
    if (!f)
        return ret(E_INVALID_DEVICE_FUNCTION);
    if (attr == 9)
        return value >= -1 && value <= 100 ? E_OK : ret(E_INVALID_VALUE);
    if (attr != 8) {
        cr_note("cudaFuncSetAttribute: attribute %d is not provided by gpulearn", attr);
        return ret(E_INVALID_VALUE);
    }
    ptx_module_t *m = module_of(f->module);
    if (!m)
        return ret(E_INVALID_KERNEL_IMAGE);
    const size_t stat = ptx_entry_shared_bytes(m, f->name),
                 optin = G.dev->shared_bytes_per_block_optin;
    if (value < 0 || (size_t)value + stat > optin)
        return ret(E_INVALID_VALUE);
    f->max_dynamic = value;
    return E_OK;
}

/* ------------------------------------------------------------------ devices */

cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return ret(E_INVALID_VALUE);
    *count = 1;
    return E_OK;
}

cudaError_t cudaGetDevice(int *device);
cudaError_t cudaGetDevice(int *device)
{
    if (!device)
        return ret(E_INVALID_VALUE);
    *device = 0;
    return E_OK;
}

cudaError_t cudaSetDevice(int device);
cudaError_t cudaSetDevice(int device)
{
    return device == 0 ? E_OK : ret(E_INVALID_DEVICE);
}

/* The modelled device's properties (sim_device_model; memory: 80 GiB). */
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device)
{
    if (!p)
        return ret(E_INVALID_VALUE);
    if (device != 0)
        return ret(E_INVALID_DEVICE);
    if (cr_init() != 0)
        return ret(E_MEMORY_ALLOCATION);
    const sim_device_model *d = G.dev;
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s (gpulearn simulator)", d->gpu);
    p->totalGlobalMem = (size_t)80 << 30;
    p->sharedMemPerBlock = d->shared_bytes_per_block;
    p->regsPerBlock = d->regs_per_sm;
    p->warpSize = d->warp_size;
    p->memPitch = SIZE_MAX / 2;
    p->maxThreadsPerBlock = d->max_threads_per_block;
    for (int i = 0; i < 3; i++) {
        p->maxThreadsDim[i] = d->max_block_dim[i];
        p->maxGridSize[i] = (int)d->max_grid_dim[i];
    }
    p->totalConstMem = 65536;
    p->major = d->compute_major;
    p->minor = d->compute_minor;
    p->textureAlignment = 512;
    p->multiProcessorCount = d->sm_count;
    p->canMapHostMemory = 1;
    p->concurrentKernels = 1;
    p->asyncEngineCount = 2;
    p->unifiedAddressing = 1;
    p->l2CacheSize = (int)d->l2_bytes;
    p->maxThreadsPerMultiProcessor = d->max_threads_per_sm;
    p->sharedMemPerMultiprocessor = d->shared_bytes_per_sm;
    p->regsPerMultiprocessor = d->regs_per_sm;
    p->managedMemory = 1;
    p->maxBlocksPerMultiProcessor = d->max_blocks_per_sm;
    p->sharedMemPerBlockOptin = d->shared_bytes_per_block_optin;
    p->reservedSharedMemPerBlock = d->shared_reserved_per_block;
    p->concurrentManagedAccess = 1;
    p->cooperativeLaunch = 1;
    p->clusterLaunch = d->compute_major >= 9;
    return E_OK;
}

/* The modelled clock, kHz (cudaDevAttrClockRate; CUDA 13's cudaDeviceProp has none). */
static int d_clock_khz(void)
{
    return G.dev->clock_mhz * 1000;
}

/* CUDA 12 and later's name for it (cuda_runtime_api.h #defines one to the other). */
cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *p, int device);
cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *p, int device)
{
    return cudaGetDeviceProperties(p, device);
}

/* cudaDeviceGetAttribute (CUDA Runtime API §6.1): every cudaDeviceAttr of CUDA 13's
 * driver_types.h. Those the profile models come from cudaGetDeviceProperties; those
 * gpulearn has nothing for (textures and surfaces, PCI ids, NUMA, interop) are 0, as a
 * device without the feature reports; a value outside the enum is cudaErrorInvalidValue. */
cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device);
cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device)
{
    struct cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, device);
    if (e != E_OK || !value)
        return ret(e != E_OK ? e : E_INVALID_VALUE);
    const int big = 0x7fffffff;
    switch (attr) {
    case 1: *value = p.maxThreadsPerBlock; break;
    case 2:
    case 3:
    case 4: *value = p.maxThreadsDim[attr - 2]; break;
    case 5:
    case 6:
    case 7: *value = p.maxGridSize[attr - 5]; break;
    case 8: *value = (int)p.sharedMemPerBlock; break;
    case 9: *value = (int)p.totalConstMem; break;
    case 10: *value = p.warpSize; break;
    case 11: *value = p.memPitch > (size_t)big ? big : (int)p.memPitch; break;
    case 12: *value = p.regsPerBlock; break;
    case 13: *value = d_clock_khz(); break;
    case 14: *value = (int)p.textureAlignment; break;
    case 15: *value = 1; break; /* GpuOverlap: copies overlap kernels */
    case 16: *value = p.multiProcessorCount; break;
    case 19: *value = p.canMapHostMemory; break;
    case 31: *value = p.concurrentKernels; break;
    case 38: *value = p.l2CacheSize; break;
    case 39: *value = p.maxThreadsPerMultiProcessor; break;
    case 40: *value = p.asyncEngineCount; break;
    case 41: *value = p.unifiedAddressing; break;
    case 75: *value = p.major; break;
    case 76: *value = p.minor; break;
    case 78: /* stream priorities, global and local L1 caching */
    case 79:
    case 80: *value = 1; break;
    case 81: *value = (int)p.sharedMemPerMultiprocessor; break;
    case 82: *value = p.regsPerMultiprocessor; break;
    case 83: *value = p.managedMemory; break;
    case 87: *value = 2; break; /* single- to double-precision throughput */
    case 89: *value = p.concurrentManagedAccess; break;
    case 90: *value = 1; break; /* compute preemption */
    case 95: *value = p.cooperativeLaunch; break;
    case 97: *value = (int)p.sharedMemPerBlockOptin; break;
    case 106: *value = p.maxBlocksPerMultiProcessor; break;
    case 111: *value = (int)p.reservedSharedMemPerBlock; break;
    case 120: *value = p.clusterLaunch; break;
    default:
        /* the rest of the enum (ComputeMode 20 is cudaComputeModeDefault, 0) */
        if (attr < 1 || attr > 147 || attr == 44 || (attr > 101 && attr < 106) || attr == 107 ||
            attr == 110 || attr == 136 || attr == 137 || attr == 146)
            return ret(E_INVALID_VALUE);
        *value = 0;
        break;
    }
    return E_OK;
}

/* Waits for the device: device printf written, a kernel's fault returned (§6.1). */
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceSynchronize(void)
{
    return ret(sync_point());
}

/* Frees every allocation and clears the errors, a sticky one too (§6.1). */
cudaError_t cudaDeviceReset(void);
cudaError_t cudaDeviceReset(void)
{
    if (cr_init() != 0)
        return E_MEMORY_ALLOCATION;
    flush_printf();
    for (int i = G.nallocs - 1; i >= 0; i--) {
        if (G.allocs[i].kind == 2)
            continue;
        sim_mfree(G.sim, G.allocs[i].ptr);
        drop_alloc(&G.allocs[i]);
    }
    G.fault = G.sticky = G.last = E_OK;
    return E_OK;
}

/* ------------------------------------------------------------------ memory */

/* Device memory (§6.10 cudaMalloc): an allocation of the simulator, which the host
 * cannot dereference (its address is not mapped in the process); file:line (NULL, 0:
 * unknown) names it in messages. */
cudaError_t __gpulearn_cudaMalloc(void **p, size_t bytes, const char *file, int line);
cudaError_t __gpulearn_cudaMalloc(void **p, size_t bytes, const char *file, int line)
{
    if (!p)
        return ret(E_INVALID_VALUE);
    if (cr_init() != 0)
        return ret(E_MEMORY_ALLOCATION);
    if (G.sticky)
        return ret(G.sticky);
    if (bytes == 0) {
        *p = NULL;
        return E_OK;
    }
    char name[64], where[96];
    alloc_label(file, line, name, sizeof name, where, sizeof where);
    uint64_t d;
    if (sim_malloc(G.sim, bytes, name, &d) != SIM_OK || add_alloc(d, bytes, 0, name, where) != 0)
        return ret(E_MEMORY_ALLOCATION);
    *p = (void *)(uintptr_t)d;
    return E_OK;
}

cudaError_t cudaMalloc(void **p, size_t bytes);
cudaError_t cudaMalloc(void **p, size_t bytes)
{
    return __gpulearn_cudaMalloc(p, bytes, NULL, 0);
}

/* Unified memory (§6.10 cudaMallocManaged): one address on the host and in kernels. */
cudaError_t __gpulearn_cudaMallocManaged(void **p, size_t bytes, unsigned flags, const char *file,
                                         int line);
cudaError_t __gpulearn_cudaMallocManaged(void **p, size_t bytes, unsigned flags, const char *file,
                                         int line)
{
    (void)flags;
    if (!p || bytes == 0)
        return ret(E_INVALID_VALUE);
    if (cr_init() != 0)
        return ret(E_MEMORY_ALLOCATION);
    if (G.sticky)
        return ret(G.sticky);
    char name[64], where[96];
    alloc_label(file, line, name, sizeof name, where, sizeof where);
    uint64_t d;
    if (sim_malloc_mapped(G.sim, bytes, name, &d) != SIM_OK ||
        add_alloc(d, bytes, 1, name, where) != 0)
        return ret(E_MEMORY_ALLOCATION);
    *p = (void *)(uintptr_t)d;
    return E_OK;
}

cudaError_t cudaMallocManaged(void **p, size_t bytes, unsigned flags);
cudaError_t cudaMallocManaged(void **p, size_t bytes, unsigned flags)
{
    return __gpulearn_cudaMallocManaged(p, bytes, flags, NULL, 0);
}

/* Pinned host memory (§6.10): ordinary host memory here. */
cudaError_t cudaMallocHost(void **p, size_t bytes);
cudaError_t cudaMallocHost(void **p, size_t bytes)
{
    if (!p)
        return ret(E_INVALID_VALUE);
    void *h = malloc(bytes ? bytes : 1);
    if (!h || add_alloc((uint64_t)(uintptr_t)h, bytes, 2, NULL, NULL) != 0) {
        free(h);
        return ret(E_MEMORY_ALLOCATION);
    }
    *p = h;
    return E_OK;
}

cudaError_t cudaHostAlloc(void **p, size_t bytes, unsigned flags);
cudaError_t cudaHostAlloc(void **p, size_t bytes, unsigned flags)
{
    (void)flags;
    return cudaMallocHost(p, bytes);
}

cudaError_t cudaFreeHost(void *p);
cudaError_t cudaFreeHost(void *p)
{
    if (!p)
        return E_OK;
    cr_alloc *a = find_alloc((uint64_t)(uintptr_t)p, 2);
    if (!a)
        return ret(E_INVALID_VALUE);
    free(p);
    drop_alloc(a);
    return E_OK;
}

/* Frees device or managed memory (§6.10); a pointer not from cudaMalloc, or freed
 * already, is cudaErrorInvalidValue with a message. */
cudaError_t cudaFree(void *p);
cudaError_t cudaFree(void *p)
{
    if (!p)
        return E_OK;
    cudaError_t e = sync_point();
    if (e != E_OK)
        return ret(e);
    cr_alloc *a = find_alloc((uint64_t)(uintptr_t)p, -1);
    if (!a || a->kind == 2) {
        cr_note("cudaFree(%p): not a pointer cudaMalloc or cudaMallocManaged returned, or "
                "freed already; cudaFree returns cudaErrorInvalidValue",
                p);
        return ret(E_INVALID_VALUE);
    }
    sim_mfree(G.sim, a->ptr);
    drop_alloc(a);
    return E_OK;
}

/* Where a copy's pointer lies: 1 device memory of n bytes from p, 0 host memory, -1 an
 * allocation's start with n past its end (message printed). */
static int where(const char *fn, uint64_t p, size_t n)
{
    int inside;
    if (device_range(p, n, &inside))
        return 1;
    if (inside) {
        cr_note("%s: the %zu bytes at 0x%llx pass the end of their device allocation; it "
                "returns cudaErrorInvalidValue",
                fn, n, (unsigned long long)p);
        return -1;
    }
    return 0;
}

/* A copy between any two of host, device and managed memory (the kind is checked
 * against where the pointers lie, as cudaMemcpyDefault would find them); sym: 1 dst, 2
 * src is a module variable's device address (not in the allocation table). */
static cudaError_t copy(const char *fn, void *dst, const void *src, size_t n, int kind, int sym)
{
    if (kind < K_HTOH || kind > K_DEFAULT)
        return ret(E_INVALID_MEMCPY_DIRECTION);
    if (n == 0)
        return E_OK;
    const uint64_t d = (uint64_t)(uintptr_t)dst, s = (uint64_t)(uintptr_t)src;
    const int wd = sym == 1 ? 1 : where(fn, d, n), ws = sym == 2 ? 1 : where(fn, s, n);
    if (wd < 0 || ws < 0)
        return ret(E_INVALID_VALUE);
    const int want_d = kind == K_HTOD || kind == K_DTOD, want_s = kind == K_DTOH || kind == K_DTOD;
    if (kind != K_DEFAULT && ((want_d && !wd) || (want_s && !ws))) {
        cr_note("%s: the %s pointer %p is not device memory, but the copy's kind says it is; "
                "it returns cudaErrorInvalidValue",
                fn, want_d && !wd ? "destination" : "source", want_d && !wd ? dst : src);
        return ret(E_INVALID_VALUE);
    }
    if (wd && ws) {
        void *tmp = malloc(n);
        if (!tmp)
            return ret(E_MEMORY_ALLOCATION);
        sim_memcpy_dtoh(G.sim, tmp, s, n);
        sim_memcpy_htod(G.sim, d, tmp, n);
        free(tmp);
        model(1000.0 + (double)n * 2 / G.dev->dram_gbs);
    } else if (wd) {
        sim_memcpy_htod(G.sim, d, src, n);
        model(5000.0 + (double)n / 25.0);
    } else if (ws) {
        sim_memcpy_dtoh(G.sim, dst, s, n);
        model(5000.0 + (double)n / 25.0);
    } else {
        memmove(dst, src, n);
    }
    return E_OK;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind)
{
    cudaError_t e = sync_point();
    if (e != E_OK)
        return ret(e);
    return copy("cudaMemcpy", dst, src, n, kind, 0);
}

/* Pitched device memory (§6.10 cudaMallocPitch): rows of `width` bytes, each starting
 * at a multiple of 512 bytes (the modelled device's texture alignment). */
cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height);
cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height)
{
    if (!pitch)
        return ret(E_INVALID_VALUE);
    const size_t pt = (width + 511) / 512 * 512;
    if (height && pt > SIZE_MAX / height)
        return ret(E_MEMORY_ALLOCATION);
    cudaError_t e = __gpulearn_cudaMalloc(p, pt * height, NULL, 0);
    if (e == E_OK)
        *pitch = pt;
    return e;
}

/* A 2D copy (§6.10 cudaMemcpy2D): `height` rows of `width` bytes, rows dpitch and spitch
 * bytes apart. */
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, int kind);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, int kind)
{
    cudaError_t e = sync_point();
    if (e != E_OK)
        return ret(e);
    if (width > dpitch || width > spitch)
        return ret(E_INVALID_PITCH_VALUE);
    for (size_t r = 0; r < height && e == E_OK; r++)
        e = copy("cudaMemcpy2D", (char *)dst + r * dpitch, (const char *)src + r * spitch, width,
                 kind, 0);
    return e;
}

/* Unified memory hints (§6.10 cudaMemPrefetchAsync, cudaMemAdvise): the simulator's
 * managed memory is one copy, so they change nothing (any signature's arguments). */
cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int device, void *stream);
cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int device, void *stream)
{
    (void)p, (void)n, (void)device, (void)stream;
    return G.sticky ? G.sticky : E_OK;
}

cudaError_t cudaMemAdvise(const void *p, size_t n, int advice, int device);
cudaError_t cudaMemAdvise(const void *p, size_t n, int advice, int device)
{
    (void)p, (void)n, (void)advice, (void)device;
    return E_OK;
}

/* Streams run in order and synchronously here: the async forms are the plain ones. */
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *stream);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *stream)
{
    (void)stream;
    return cudaMemcpy(dst, src, n, kind);
}

/* Sets n bytes of device memory to the byte value (§6.10). */
cudaError_t cudaMemset(void *p, int value, size_t n);
cudaError_t cudaMemset(void *p, int value, size_t n)
{
    if (cr_init() != 0)
        return ret(E_MEMORY_ALLOCATION);
    if (G.sticky)
        return ret(G.sticky);
    if (n == 0)
        return E_OK;
    const uint64_t d = (uint64_t)(uintptr_t)p;
    const int w = where("cudaMemset", d, n);
    if (w <= 0) {
        if (w == 0)
            cr_note("cudaMemset: %p is not device memory; it returns cudaErrorInvalidValue", p);
        return ret(E_INVALID_VALUE);
    }
    const size_t chunk = (size_t)1 << 20;
    unsigned char *buf = malloc(n < chunk ? n : chunk);
    if (!buf)
        return ret(E_MEMORY_ALLOCATION);
    memset(buf, value, n < chunk ? n : chunk);
    for (size_t off = 0; off < n; off += chunk)
        sim_memcpy_htod(G.sim, d + off, buf, n - off < chunk ? n - off : chunk);
    free(buf);
    model(1000.0 + (double)n / G.dev->dram_gbs);
    return E_OK;
}

cudaError_t cudaMemsetAsync(void *p, int value, size_t n, void *stream);
cudaError_t cudaMemsetAsync(void *p, int value, size_t n, void *stream)
{
    (void)stream;
    return cudaMemset(p, value, n);
}

/* The device address of the variable whose host shadow is `symbol`; E_OK or an error. */
static cudaError_t symbol_address(const void *symbol, uint64_t *d, size_t *bytes)
{
    if (cr_init() != 0)
        return E_MEMORY_ALLOCATION;
    for (int i = 0; i < G.nvars; i++)
        if (G.vars[i].host == symbol) {
            ptx_module_t *m = module_of(G.vars[i].module);
            if (!m)
                return E_INVALID_KERNEL_IMAGE;
            return sim_var_address(G.sim, m, G.vars[i].name, d, bytes) == SIM_OK ? E_OK
                                                                                 : E_INVALID_SYMBOL;
        }
    return E_INVALID_SYMBOL;
}

/* Copies into a __constant__ or __device__ variable (§6.10 cudaMemcpyToSymbol). */
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t n, size_t offset,
                               int kind);
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t n, size_t offset,
                               int kind)
{
    cudaError_t e = sync_point();
    if (e != E_OK)
        return ret(e);
    uint64_t d;
    size_t bytes;
    if ((e = symbol_address(symbol, &d, &bytes)) != E_OK)
        return ret(e);
    if (offset > bytes || n > bytes - offset ||
        (kind != K_HTOD && kind != K_DTOD && kind != K_DEFAULT))
        return ret(E_INVALID_VALUE);
    return copy("cudaMemcpyToSymbol", (void *)(uintptr_t)(d + offset), src, n, K_DEFAULT, 1);
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t n, size_t offset, int kind);
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t n, size_t offset, int kind)
{
    cudaError_t e = sync_point();
    if (e != E_OK)
        return ret(e);
    uint64_t d;
    size_t bytes;
    if ((e = symbol_address(symbol, &d, &bytes)) != E_OK)
        return ret(e);
    if (offset > bytes || n > bytes - offset ||
        (kind != K_DTOH && kind != K_DTOD && kind != K_DEFAULT))
        return ret(E_INVALID_VALUE);
    return copy("cudaMemcpyFromSymbol", dst, (void *)(uintptr_t)(d + offset), n, K_DEFAULT, 2);
}

cudaError_t cudaGetSymbolAddress(void **p, const void *symbol);
cudaError_t cudaGetSymbolAddress(void **p, const void *symbol)
{
    uint64_t d;
    size_t bytes;
    cudaError_t e = symbol_address(symbol, &d, &bytes);
    if (e != E_OK)
        return ret(e);
    *p = (void *)(uintptr_t)d;
    return E_OK;
}

/* ------------------------------------------------------------ streams, events */

cudaError_t cudaStreamCreate(void **stream);
cudaError_t cudaStreamCreate(void **stream)
{
    if (!stream)
        return ret(E_INVALID_VALUE);
    *stream = malloc(1);
    return *stream ? E_OK : ret(E_MEMORY_ALLOCATION);
}

cudaError_t cudaStreamCreateWithFlags(void **stream, unsigned flags);
cudaError_t cudaStreamCreateWithFlags(void **stream, unsigned flags)
{
    (void)flags;
    return cudaStreamCreate(stream);
}

cudaError_t cudaStreamSynchronize(void *stream);
cudaError_t cudaStreamSynchronize(void *stream)
{
    (void)stream;
    return ret(sync_point());
}

cudaError_t cudaStreamDestroy(void *stream);
cudaError_t cudaStreamDestroy(void *stream)
{
    free(stream);
    return E_OK;
}

cudaError_t cudaEventCreate(cr_event **ev);
cudaError_t cudaEventCreate(cr_event **ev)
{
    if (!ev)
        return ret(E_INVALID_VALUE);
    *ev = calloc(1, sizeof **ev);
    return *ev ? E_OK : ret(E_MEMORY_ALLOCATION);
}

cudaError_t cudaEventCreateWithFlags(cr_event **ev, unsigned flags);
cudaError_t cudaEventCreateWithFlags(cr_event **ev, unsigned flags)
{
    (void)flags;
    return cudaEventCreate(ev);
}

/* Records the modelled device time (launches and copies so far). */
cudaError_t cudaEventRecord(cr_event *ev, void *stream);
cudaError_t cudaEventRecord(cr_event *ev, void *stream)
{
    (void)stream;
    if (!ev)
        return ret(E_INVALID_RESOURCE_HANDLE);
    ev->ns = G.now_ns;
    ev->recorded = 1;
    return E_OK;
}

cudaError_t cudaEventSynchronize(cr_event *ev);
cudaError_t cudaEventSynchronize(cr_event *ev)
{
    if (!ev)
        return ret(E_INVALID_RESOURCE_HANDLE);
    return ret(sync_point());
}

/* Whether the work before the event has completed (§6.6): always, as streams are
 * synchronous, so cudaSuccess, or the sticky error of a kernel that faulted. */
cudaError_t cudaEventQuery(cr_event *ev);
cudaError_t cudaEventQuery(cr_event *ev)
{
    if (!ev)
        return ret(E_INVALID_RESOURCE_HANDLE);
    return ret(sync_point());
}

/* The same for a stream (§6.4). */
cudaError_t cudaStreamQuery(void *stream);
cudaError_t cudaStreamQuery(void *stream)
{
    (void)stream;
    return ret(sync_point());
}

/* A false assert() in a whole program's host code (runtime/prelude/include/assert.h
 * declares __assertfail for both sides): the C library's message and abort(), as the
 * host's assert.h does. */
void __assertfail(const char *message, const char *file, unsigned line, const char *function,
                  size_t char_size);
void __assertfail(const char *message, const char *file, unsigned line, const char *function,
                  size_t char_size)
{
    (void)char_size;
    fflush(stdout);
    fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, message);
    abort();
}

/* cudaProfilerStart/Stop (§6.32 "Profiler Control"): no profiler attaches to the
 * simulator; both succeed and do nothing. */
cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStart(void)
{
    return E_OK;
}

cudaError_t cudaProfilerStop(void);
cudaError_t cudaProfilerStop(void)
{
    return E_OK;
}

/* Milliseconds of modelled device time between two recorded events; the simulator's
 * model, not a measurement, as stderr says once. */
cudaError_t cudaEventElapsedTime(float *ms, cr_event *a, cr_event *b);
cudaError_t cudaEventElapsedTime(float *ms, cr_event *a, cr_event *b)
{
    if (!ms)
        return ret(E_INVALID_VALUE);
    if (!a || !b || !a->recorded || !b->recorded)
        return ret(E_INVALID_RESOURCE_HANDLE);
    if (!G.timing_noted) {
        G.timing_noted = 1;
        cr_note("note: cudaEventElapsedTime gives modelled time on the simulator (3 us a "
                "launch plus its warp instructions at 4 a clock per SM, copies at 25 GB/s), "
                "not a measurement");
    }
    *ms = (float)((b->ns - a->ns) / 1e6);
    return E_OK;
}

cudaError_t cudaEventDestroy(cr_event *ev);
cudaError_t cudaEventDestroy(cr_event *ev)
{
    free(ev);
    return E_OK;
}
