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
#include <limits.h>
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
#include "cudart/include/gpulearn_func_attributes.h"
#include "cudart/record.h"
#include "sim/sim.h"
#include "trace/analysis.h"
#include "trace/trace_file.h"

#ifdef __SANITIZE_ADDRESS__
/* In a sanitizer build of gpulearn (make MODE=asan) a program links AddressSanitizer's
 * runtime with this archive. The program's own leaks are not gpulearn's to report, and
 * in the sandbox LeakSanitizer's exit-time check would start a tracer process (clone)
 * and ptrace, which the sandbox stops: so leak checking is off. It is set here, not by
 * ASAN_OPTIONS, because the sanitizer runtime reads its options from /proc/self/environ,
 * which Landlock keeps a sandboxed program from opening. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "detect_leaks=0";
}
#endif

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

/* A __device__ or __constant__ variable: its host shadow's address and PTX name; its
 * device address and size once cudaGetSymbolAddress handed them out (dptr 0: not yet),
 * for copies and memsets through that pointer. */
typedef struct cr_var {
    const void *host;
    int module;
    const char *name;
    uint64_t dptr;
    size_t bytes;
} cr_var;

/* A device, managed or pinned host allocation of the program. */
typedef struct cr_alloc {
    uint64_t ptr;
    size_t bytes;
    int kind; /* 0 cudaMalloc, 1 cudaMallocManaged, 2 cudaMallocHost/HostAlloc */
    unsigned number;
    int free_refused; /* a cudaFree of it returned a kernel's sticky error */
    char name[64];    /* the label the simulator knows it by: the host variable or
                         "allocation #N" */
    char where[96];   /* "vector_add.cu:34" where it was allocated, or "" */
} cr_alloc;

/* A freed device allocation, for a second cudaFree's message (the simulator never gives
 * an address twice, so a freed pointer names one allocation). */
typedef struct cr_freed {
    uint64_t ptr;
    size_t bytes;
    char name[64], where[96]; /* as cr_alloc's */
    char freed_at[96];        /* "prog.cu:30", the cudaFree that freed it, or "" */
} cr_freed;
enum { CR_FREED = 64 };

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
        const void *site; /* the return address of <<<>>>'s push: in the host code */
    } cfg[8];
    int ncfg;
    const void *site; /* the popped configuration's site, for the launch that follows */
    int api_depth;    /* host API calls in progress (one record for the outermost) */
    /* the last CR_FREED allocations freed, a ring, and the frees so far
     * (freed[nfreed % CR_FREED] is the next) */
    cr_freed freed[CR_FREED];
    unsigned nfreed;
    unsigned nlaunch; /* launches so far (records number them from 1) */
    trace_t *trace;   /* GPULEARN_PROG_TRACE_DIR set: each launch's trace */
    const char *trace_dir;
    gl_metrics metrics; /* the launch's metrics, streamed from its trace */
} G;

/* ------------------------------------------------------------------ helpers */

/* A host API call being recorded (record.h): its name and start on both clocks. */
typedef struct cr_api {
    const char *name; /* NULL: not recorded (no record file, or a call inside another) */
    double model0, wall0;
} cr_api;

static cr_api api_begin(const char *name)
{
    cr_api a = {NULL, 0, 0};
    if (G.api_depth++ == 0 && cr_rec_on()) {
        a.name = strncmp(name, "__gpulearn_", 11) == 0 ? name + 11 : name;
        a.model0 = G.now_ns;
        a.wall0 = cr_wall_ns();
    }
    return a;
}

/* The call's record: {"type":"api", "name", "start_ns", "end_ns" (the modelled device
 * clock), "wall_start_ns", "wall_end_ns"}. */
static void api_end(cr_api *a)
{
    G.api_depth--;
    if (!a->name)
        return;
    cr_json j = {0};
    cr_json_raw(&j, "{\"type\":\"api\",\"name\":");
    cr_json_str(&j, a->name);
    cr_json_fmt(&j,
                ",\"start_ns\":%.0f,\"end_ns\":%.0f,\"wall_start_ns\":%.0f,"
                "\"wall_end_ns\":%.0f}",
                a->model0, G.now_ns, a->wall0, cr_wall_ns());
    cr_rec_write(&j);
    cr_json_free(&j);
}

/* At the start of every API function: its record written when it returns. */
#define CR_API() cr_api cr_api_call_ __attribute__((cleanup(api_end))) = api_begin(__func__)

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

/* Lists the device allocations never freed (refused 0) or whose cudaFree returned a
 * kernel's sticky error (refused 1) on stderr, under a note; none: nothing. */
static void note_unfreed(int refused)
{
    int leaks = 0;
    size_t bytes = 0;
    for (int i = 0; i < G.nallocs; i++)
        if (G.allocs[i].kind != 2 && G.allocs[i].free_refused == refused)
            leaks++, bytes += G.allocs[i].bytes;
    if (!leaks)
        return;
    if (refused)
        cr_note("note: %d device allocation%s (%zu bytes) not freed because cudaFree returned "
                "the kernel fault's sticky error (%s), as on a GPU:",
                leaks, leaks == 1 ? "" : "s", bytes, err_name(G.sticky));
    else
        cr_note("note: %d device allocation%s (%zu bytes) never freed with cudaFree:", leaks,
                leaks == 1 ? "" : "s", bytes);
    for (int i = 0, shown = 0; i < G.nallocs && shown < 5; i++)
        if (G.allocs[i].kind != 2 && G.allocs[i].free_refused == refused) {
            shown++;
            cr_note("  '%s' (%zu bytes%s%s)", G.allocs[i].name, G.allocs[i].bytes,
                    G.allocs[i].where[0] ? ", " : "", G.allocs[i].where);
        }
}

/* At exit: device printf written; device memory never freed reported, as
 * compute-sanitizer's leak check does (apart from memory whose cudaFree a kernel's fault
 * refused, which the program did free). */
static void at_exit(void)
{
    flush_printf();
    fflush(stdout);
    note_unfreed(0);
    note_unfreed(1);
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
    G.trace_dir = getenv("GPULEARN_PROG_TRACE_DIR");
    if (G.trace_dir && *G.trace_dir) {
        /* GPULEARN_PROG_TRACE_FULL (the TUI): what its views read, as a kernel's run in
         * the TUI records it (registers, shared memory at barriers, 256 Ki events) */
        const char *full = getenv("GPULEARN_PROG_TRACE_FULL");
        const int tui = full && strcmp(full, "1") == 0;
        G.trace = trace_new(TRACE_MEMORY, tui ? (size_t)1 << 18 : 0);
        if (G.trace && tui) {
            G.trace->record_regs = 1;
            G.trace->snap_max_bytes = (size_t)1 << 20;
        }
        cfg.trace = G.trace;
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

/* The device or managed allocation holding [p, p+n), or NULL; *past: the allocation p
 * lies in when the range passes its end, else NULL. */
static cr_alloc *device_range(uint64_t p, size_t n, cr_alloc **past)
{
    *past = NULL;
    for (int i = 0; i < G.nallocs; i++) {
        cr_alloc *a = &G.allocs[i];
        if (a->kind == 2 || p < a->ptr || p - a->ptr >= (a->bytes ? a->bytes : 1))
            continue;
        if (n <= a->bytes - (p - a->ptr))
            return a;
        *past = a;
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
 * name; 0 when the line cannot be read, holds no such call, or holds two (which of them
 * called is not known: `cudaMalloc(&a, n); cudaMalloc(&b, n);` must not name b 'a'). */
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
    if (p && strstr(p + 1, "cudaMalloc"))
        p = NULL;
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
    G.vars[G.nvars++] = (cr_var){host, (int)(uintptr_t)handle - 1, name, 0, 0};
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
    G.cfg[G.ncfg].site = __builtin_return_address(0);
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
    G.site = G.cfg[G.ncfg].site;
    return 0;
}

/* The old launch API's configuration call (clang's device-side parse names it). */
cudaError_t cudaConfigureCall(cr_dim3 grid, cr_dim3 block, size_t shared, void *stream);
cudaError_t cudaConfigureCall(cr_dim3 grid, cr_dim3 block, size_t shared, void *stream)
{
    CR_API();
    return __cudaPushCallConfiguration(grid, block, shared, stream) ? E_INVALID_VALUE : E_OK;
}

/* ------------------------------------------------------------------ errors */

/* CUDA Runtime API §6.3 "Error Handling". */
cudaError_t cudaGetLastError(void);
cudaError_t cudaGetLastError(void)
{
    CR_API();
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
    CR_API();
    return G.last;
}

const char *cudaGetErrorString(cudaError_t e);
const char *cudaGetErrorString(cudaError_t e)
{
    CR_API();
    for (size_t i = 0; i < sizeof cr_errors / sizeof cr_errors[0]; i++)
        if (cr_errors[i].code == e)
            return cr_errors[i].text;
    return "unrecognized error code";
}

const char *cudaGetErrorName(cudaError_t e);
const char *cudaGetErrorName(cudaError_t e)
{
    CR_API();
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

/* ------------------------------------------------------------------ launch records */

/* The names sim/kinds.h gives each kind, by value. */
#define CR_NAME(n, v) [v] = #n,
static const char *const fault_kind_names[] = {SIM_FAULT_LIST(CR_NAME)};
static const char *const finding_kind_names[] = {SIM_FINDING_LIST(CR_NAME)};
static const char *const hazard_names[] = {SIM_HAZARD_LIST(CR_NAME)};
#undef CR_NAME

static const char *name_of(const char *const *names, size_t n, int v)
{
    return v >= 0 && (size_t)v < n && names[v] ? names[v] : "OTHER";
}

static void json_dim(cr_json *j, const char *key, const unsigned v[3])
{
    cr_json_fmt(j, ",\"%s\":[%u,%u,%u]", key, v[0], v[1], v[2]);
}

/* ,"file":..,"line":..,"ptx_line":..,"block":[..],"thread":[..] of an access. */
static void json_place(cr_json *j, const char *file, int line, int ptx_line,
                       const unsigned block[3], const unsigned thread[3])
{
    cr_json_raw(j, ",\"file\":");
    cr_json_str(j, file ? rel_path(file) : NULL);
    cr_json_fmt(j, ",\"line\":%d,\"ptx_line\":%d", line, ptx_line);
    json_dim(j, "block", block);
    json_dim(j, "thread", thread);
}

static void json_fault(cr_json *j, const sim_fault *ft)
{
    cr_json_raw(j, "{\"kind\":");
    cr_json_str(
        j, name_of(fault_kind_names, sizeof fault_kind_names / sizeof *fault_kind_names, ft->kind));
    cr_json_raw(j, ",\"message\":");
    cr_json_str(j, ft->message);
    json_place(j, ft->src_file, ft->src_line, ft->ptx_line, ft->block, ft->thread);
    cr_json_raw(j, ",\"space\":");
    cr_json_str(j, trace_space_name((int)ft->space));
    cr_json_fmt(j, ",\"is_store\":%d,\"address\":%llu,\"size\":%u", ft->is_store,
                (unsigned long long)ft->address, ft->size);
    if (ft->near.bytes) {
        cr_json_raw(j, ",\"alloc\":{\"name\":");
        cr_json_str(j, ft->near.name);
        cr_json_fmt(j, ",\"bytes\":%llu,\"distance\":%llu,\"after\":%d}",
                    (unsigned long long)ft->near.bytes, (unsigned long long)ft->near.distance,
                    ft->near.after);
    } else {
        cr_json_raw(j, ",\"alloc\":null");
    }
    cr_json_raw(j, ",\"error\":");
    cr_json_str(j, err_name(fault_error(ft)));
    cr_json_raw(j, "}");
}

static void json_finding(cr_json *j, const sim_finding *x)
{
    cr_json_raw(j, "{\"kind\":");
    cr_json_str(j, name_of(finding_kind_names,
                           sizeof finding_kind_names / sizeof *finding_kind_names, x->kind));
    cr_json_fmt(j, ",\"severity\":\"%s\",\"message\":", x->is_error ? "error" : "warning");
    cr_json_str(j, x->message);
    json_place(j, x->access.src_file, x->access.src_line, x->access.ptx_line, x->access.block,
               x->access.thread);
    cr_json_fmt(j, ",\"op\":%d,\"space\":", x->access.op);
    cr_json_str(j, trace_space_name((int)x->space));
    cr_json_fmt(j, ",\"address\":%llu,\"size\":%u,\"hazard\":\"%s\",\"count\":%llu,\"var\":",
                (unsigned long long)x->address, x->size,
                name_of(hazard_names, sizeof hazard_names / sizeof *hazard_names, x->hazard),
                (unsigned long long)x->count);
    cr_json_str(j, x->var);
    if (x->hazard != SIM_HAZ_NONE) {
        cr_json_fmt(j, ",\"other\":{\"op\":%d", x->other.op);
        json_place(j, x->other.src_file, x->other.src_line, x->other.ptx_line, x->other.block,
                   x->other.thread);
        cr_json_fmt(j, "},\"other_async\":%d}", x->other_async);
    } else {
        cr_json_raw(j, ",\"other\":null,\"other_async\":0}");
    }
}

/* One launch's record (docs/architecture.md "Whole programs", "Launch records"); r NULL
 * when the kernel did not run (e: why). */
static void rec_launch(const cr_func *f, cr_dim3 grid, cr_dim3 block, size_t shared,
                       const void *site, cudaError_t e, const sim_result *r, double model0,
                       double wall0)
{
    cr_json j = {0};
    char name[512];
    const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    cr_json_fmt(&j, "{\"type\":\"launch\",\"launch\":%u,\"kernel\":", G.nlaunch);
    cr_json_str(&j, f ? kernel_name(f->name, name, sizeof name) : NULL);
    cr_json_raw(&j, ",\"mangled\":");
    cr_json_str(&j, f ? f->name : NULL);
    json_dim(&j, "grid", g);
    json_dim(&j, "block", b);
    cr_json_fmt(&j, ",\"shared\":%zu", shared);
    const uint64_t at = cr_exe_address(site);
    if (at)
        cr_json_fmt(&j, ",\"site\":\"0x%llx\"", (unsigned long long)at);
    else
        cr_json_raw(&j, ",\"site\":null");
    cr_json_fmt(&j, ",\"launched\":%s,\"error\":", r ? "true" : "false");
    cr_json_str(&j, err_name(e));
    cr_json_raw(&j, ",\"fault\":");
    if (r && r->fault.kind != SIM_FAULT_NONE)
        json_fault(&j, &r->fault);
    else
        cr_json_raw(&j, "null");
    cr_json_raw(&j, ",\"findings\":[");
    for (int i = 0; r && i < r->nfindings; i++) {
        if (i)
            cr_json_raw(&j, ",");
        json_finding(&j, &r->findings[i]);
    }
    cr_json_fmt(&j,
                "],\"findings_dropped\":%d,\"errors\":%d,\"warnings\":%d,\"stats\":{"
                "\"warp_instructions\":%llu,\"thread_instructions\":%llu,\"printf_bytes\":%zu},"
                "\"start_ns\":%.0f,\"end_ns\":%.0f,\"wall_start_ns\":%.0f,\"wall_end_ns\":%.0f}",
                r ? r->findings_dropped : 0, r ? r->nerrors : 0, r ? r->nwarnings : 0,
                r ? (unsigned long long)r->stats.warp_instructions : 0ULL,
                r ? (unsigned long long)r->stats.thread_instructions : 0ULL, r ? r->printf_len : 0,
                model0, G.now_ns, wall0, cr_wall_ns());
    cr_rec_write(&j);
    cr_json_free(&j);
}

/* GPULEARN_PROG_TRACE_DIR: launch N's trace (N.trace, trace/trace_file.h) and its
 * metrics (N.metrics.json, trace/analysis.h gl_metrics_write_json) in that folder, which
 * gpulearn reads (runtime/program.h). */
static void write_launch_files(void)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%u.trace", G.trace_dir, G.nlaunch);
    FILE *t = fopen(path, "wb");
    if (t) {
        trace_save(G.trace, t);
        fclose(t);
    }
    if (gl_metrics_finish(&G.metrics, G.trace) < 0)
        G.metrics.incomplete = 1;
    snprintf(path, sizeof path, "%s/%u.metrics.json", G.trace_dir, G.nlaunch);
    FILE *m = fopen(path, "w");
    if (m) {
        gl_metrics_write_json(&G.metrics, m);
        fclose(m);
    }
}

/* Runs kernel f (NULL: not registered) on the simulator, synchronously; *ran: 1 when it
 * ran, r then filled (the caller frees it). Returns what the launch returns. */
static cudaError_t launch(const cr_func *f, cr_dim3 grid, cr_dim3 block, void **args, size_t shared,
                          sim_result *r, int *ran)
{
    *ran = 0;
    flush_printf();
    if (G.sticky)
        return G.sticky;
    if (!f)
        return E_INVALID_DEVICE_FUNCTION;
    const sim_device_model *d = G.dev;
    const uint64_t threads = (uint64_t)block.x * block.y * block.z;
    /* every illegal configuration is cudaErrorInvalidValue, as an H200 with CUDA 13 gives
     * it (tests/programs/launch_config.cu: too many threads, a dimension past its limit,
     * an empty block or grid; older runtimes said cudaErrorInvalidConfiguration) */
    if (threads == 0 || threads > (uint64_t)d->max_threads_per_block ||
        block.x > (unsigned)d->max_block_dim[0] || block.y > (unsigned)d->max_block_dim[1] ||
        block.z > (unsigned)d->max_block_dim[2] || grid.x == 0 || grid.y == 0 || grid.z == 0 ||
        grid.x > d->max_grid_dim[0] || grid.y > d->max_grid_dim[1] || grid.z > d->max_grid_dim[2])
        return E_INVALID_VALUE;
    ptx_module_t *m = module_of(f->module);
    if (!m)
        return E_INVALID_KERNEL_IMAGE;
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
        return E_INVALID_VALUE;
    }
    if (G.trace) { /* the metrics of this launch, streamed from its trace */
        gl_metrics_free(&G.metrics);
        memset(&G.metrics, 0, sizeof G.metrics);
        G.metrics.l2_bytes = d->l2_bytes;
        G.trace->sink = gl_metrics_sink;
        G.trace->sink_ctx = &G.metrics;
    }
    const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    sim_status st = sim_launch(G.sim, m, f->name, g, b, (unsigned)shared, args, r);
    if (st == SIM_ERR_LAUNCH || st == SIM_ERR_NOT_FOUND || st == SIM_ERR_NOMEM) {
        char name[512];
        cr_note("kernel %s not launched: %s", kernel_name(f->name, name, sizeof name),
                r->fault.message);
        sim_result_free(r);
        return st == SIM_ERR_NOMEM ? E_MEMORY_ALLOCATION : E_INVALID_VALUE;
    }
    *ran = 1;
    report(f, grid, block, r);
    if (r->fault.kind != SIM_FAULT_NONE)
        G.fault = fault_error(&r->fault);
    if (r->printf_len) {
        char *no = realloc(G.out, G.out_len + r->printf_len);
        if (no) {
            memcpy(no + G.out_len, r->printf_out, r->printf_len);
            G.out = no;
            G.out_len += r->printf_len;
        }
    }
    if (r->printf_dropped) { /* a kernel that floods printf: said, not silently cut */
        char name[512];
        cr_note("kernel %s printed %zu bytes more than the %zu MiB the device's printf buffer "
                "holds (cudaLimitPrintfFifoSize): they were dropped, as a GPU drops them",
                kernel_name(f->name, name, sizeof name), r->printf_dropped,
                SIM_PRINTF_MAX_BYTES >> 20);
    }
    /* modelled time: a launch's overhead, then its warp instructions issued by the
     * device's SMs, four warps a clock each */
    model(3000.0 +
          (double)r->stats.warp_instructions / (4.0 * d->sm_count) * 1000.0 / d->clock_mhz);
    return E_OK;
}

/* Runs kernel `func` on the simulator, synchronously (§6.8 cudaLaunchKernel), and
 * records the launch (record.h). */
cudaError_t cudaLaunchKernel(const void *func, cr_dim3 grid, cr_dim3 block, void **args,
                             size_t shared, void *stream);
cudaError_t cudaLaunchKernel(const void *func, cr_dim3 grid, cr_dim3 block, void **args,
                             size_t shared, void *stream)
{
    CR_API();
    (void)stream;
    /* where in the host code: <<<>>>'s push, else this call's caller */
    const void *site = G.site ? G.site : __builtin_return_address(0);
    G.site = NULL;
    if (cr_init() != 0)
        return ret(E_MEMORY_ALLOCATION);
    const cr_func *f = NULL;
    for (int i = 0; i < G.nfuncs && !f; i++)
        if (G.funcs[i].stub == func)
            f = &G.funcs[i];
    const double model0 = G.now_ns, wall0 = cr_rec_on() ? cr_wall_ns() : 0;
    sim_result r;
    int ran = 0;
    const cudaError_t e = launch(f, grid, block, args, shared, &r, &ran);
    G.nlaunch++;
    if (cr_rec_on())
        rec_launch(f, grid, block, shared, site, e, ran ? &r : NULL, model0, wall0);
    if (ran && G.trace)
        write_launch_files();
    if (ran)
        sim_result_free(&r);
    return ret(e);
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
    CR_API();
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

/* ------------------------------------------------------------------ occupancy */

/* The registers per thread ptxas gave kernel `name` for the modelled device (the table
 * gpulearn's build writes, GPULEARN_PROG_REGS: "sm_90\n<registers> <name>\n..."), or -1
 * when they were not counted (no CUDA Toolkit's ptxas when the program was built): said
 * once on stderr. */
static int func_regs(const char *name)
{
    static char *table;
    static int loaded;
    if (!loaded) {
        loaded = 1;
        const char *path = getenv("GPULEARN_PROG_REGS");
        FILE *f = path && *path ? fopen(path, "r") : NULL;
        long len = -1;
        if (f && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 &&
            fseek(f, 0, SEEK_SET) == 0 && (table = calloc(1, (size_t)len + 1)) != NULL &&
            fread(table, 1, (size_t)len, f) != (size_t)len) {
            free(table);
            table = NULL;
        }
        if (f)
            fclose(f);
    }
    for (const char *p = table; p && *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0)) {
        char *end;
        const long r = strtol(p, &end, 10);
        const size_t k = strlen(name);
        if (end != p && *end == ' ' && strncmp(end + 1, name, k) == 0 &&
            (end[1 + k] == '\n' || end[1 + k] == '\0'))
            return (int)r;
    }
    static int noted;
    if (!noted) {
        noted = 1;
        cr_note("note: registers per thread are not counted for %s (no CUDA Toolkit's ptxas "
                "when it was built): cudaFuncGetAttributes gives numRegs 0 and the occupancy "
                "calls leave the register limit out",
                G.prog);
    }
    return -1;
}

/* The threads per block a kernel may have (.maxntid or .reqntid of its .entry in the PTX,
 * __launch_bounds__'s first argument), or 0 when it does not say. */
static int ptx_max_threads(const char *ptx, const char *name)
{
    char pat[600];
    snprintf(pat, sizeof pat, ".entry %s(", name);
    const char *e = strstr(ptx, pat);
    if (!e)
        return 0;
    const char *body = strchr(e, '{');
    const char *d = strstr(e, ".maxntid");
    if (!d || (body && d > body))
        d = strstr(e, ".reqntid");
    if (!d || (body && d > body))
        return 0;
    d += 8;
    long n = 1;
    for (int i = 0; i < 3; i++) {
        char *end;
        const long v = strtol(d, &end, 10);
        if (end == d)
            break;
        n *= v;
        d = end + strspn(end, " \t,");
    }
    return n > 0 && n <= INT_MAX ? (int)n : 0;
}

/* The bytes a warp's registers take: regs x 32 rounded up to the allocation unit (CUDA
 * Occupancy Calculator, cuda_occupancy.h cudaOccMaxBlocksPerSMRegsLimit). */
static int regs_per_warp(const sim_device_model *d, int regs)
{
    const int unit = d->reg_alloc_unit;
    return (regs * d->warp_size + unit - 1) / unit * unit;
}

/* cudaFuncGetAttributes's fields for f (m: its module): static shared memory from the
 * PTX, registers per thread from ptxas (func_regs: 0 when not counted), the most threads
 * per block (the device's, the kernel's __launch_bounds__, and what its registers allow:
 * a block's warps, rounded up to the SM's sub-partitions, times a warp's registers within
 * the registers of a block), the dynamic shared memory it may have (cudaFuncSetAttribute's,
 * else 48 KiB less the static), the PTX's target as ptxVersion and the modelled device's
 * as binaryVersion (the driver compiles the PTX for it). constSizeBytes and
 * localSizeBytes are not counted (0); the cluster fields are 0 as for a kernel without
 * cluster attributes; preferredShmemCarveout -1 (the default). */
static void func_attributes(const cr_func *f, const ptx_module_t *m, struct cudaFuncAttributes *a)
{
    const sim_device_model *d = G.dev;
    memset(a, 0, sizeof *a);
    a->sharedSizeBytes = ptx_entry_shared_bytes(m, f->name);
    const int regs = func_regs(f->name);
    a->numRegs = regs > 0 ? regs : 0;
    int max = d->max_threads_per_block;
    const int bounds = ptx_max_threads(G.mods[f->module].ptx, f->name);
    if (bounds > 0 && bounds < max)
        max = bounds;
    if (a->numRegs > 0) {
        const int parts = d->sm_partitions, per_warp = regs_per_warp(d, a->numRegs);
        const int warps = d->regs_per_sm / per_warp / parts * parts; /* per block */
        if (warps * d->warp_size < max)
            max = warps * d->warp_size;
    }
    a->maxThreadsPerBlock = max;
    const char *t = strstr(G.mods[f->module].ptx, ".target sm_");
    a->ptxVersion = t ? atoi(t + 11) : 0;
    a->binaryVersion = d->compute_major * 10 + d->compute_minor;
    a->maxDynamicSharedSizeBytes = f->max_dynamic >= 0
                                       ? f->max_dynamic
                                       : (int)(d->shared_bytes_per_block > a->sharedSizeBytes
                                                   ? d->shared_bytes_per_block - a->sharedSizeBytes
                                                   : 0);
    a->preferredShmemCarveout = -1;
}

/* The registered kernel of host stub func, its module parsed; NULL with *e set. */
static cr_func *kernel_of(const void *func, const ptx_module_t **m, cudaError_t *e)
{
    cr_func *f = NULL;
    for (int i = 0; i < G.nfuncs && !f; i++)
        if (G.funcs[i].stub == func)
            f = &G.funcs[i];
    *e = E_INVALID_DEVICE_FUNCTION;
    if (!f)
        return NULL;
    *e = E_INVALID_KERNEL_IMAGE;
    if (!(*m = module_of(f->module)))
        return NULL;
    *e = E_OK;
    return f;
}

/* cudaFuncGetAttributes (CUDA Runtime API §6.8): func_attributes's fields. */
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    CR_API();
    if (cr_init() != 0)
        return ret(E_MEMORY_ALLOCATION);
    if (!attr)
        return ret(E_INVALID_VALUE);
    const ptx_module_t *m = NULL;
    cudaError_t e;
    const cr_func *f = kernel_of(func, &m, &e);
    /* a pointer that is no kernel is cudaErrorInvalidResourceHandle here, as CUDA 13 on an
     * H200 returns it (tests/programs/occupancy.cu), not cudaErrorInvalidDeviceFunction */
    if (!f)
        return ret(e == E_INVALID_DEVICE_FUNCTION ? E_INVALID_RESOURCE_HANDLE : e);
    func_attributes(f, m, attr);
    return E_OK;
}

/* The blocks of block_size threads with dyn bytes of dynamic shared memory that one SM
 * holds at once, as the CUDA Occupancy Calculator counts them (the Toolkit's
 * cuda_occupancy.h cudaOccMaxActiveBlocksPerMultiprocessor, the default shared-memory
 * carveout): the least of the limits of warps (the SM's over the block's), blocks per
 * SM, shared memory (static + dynamic + the driver's reserve per block, in allocation
 * units; 0 past what a block may have) and registers (cudaOccMaxBlocksPerSMRegsLimit:
 * a warp's registers rounded up to the allocation unit in one of the SM's
 * sub-partitions; 0 when a block's warps, rounded up to the partitions, need more than a
 * block may have). */
static int blocks_per_sm(const cr_func *f, const struct cudaFuncAttributes *a, int block_size,
                         size_t dyn)
{
    const sim_device_model *d = G.dev;
    if (block_size > d->max_threads_per_block)
        return 0;
    const int warps = (block_size + d->warp_size - 1) / d->warp_size;
    int limit = d->max_threads_per_sm / d->warp_size / warps;
    if (d->max_blocks_per_sm < limit)
        limit = d->max_blocks_per_sm;
    /* shared memory (cudaOccMaxBlocksPerSMSmemLimit) */
    const size_t stat = a->sharedSizeBytes + d->shared_reserved_per_block;
    const size_t taken = sim_shared_taken(stat + dyn, 0, d->shared_alloc_unit);
    const int optin = f->max_dynamic >= 0;
    size_t per_block = d->shared_bytes_per_block;
    if (optin && stat + (size_t)a->maxDynamicSharedSizeBytes > d->shared_bytes_per_block)
        per_block = d->shared_bytes_per_block_optin;
    per_block += d->shared_reserved_per_block;
    if ((optin && dyn > (size_t)a->maxDynamicSharedSizeBytes) || taken > per_block)
        return 0;
    if (taken && d->shared_bytes_per_sm / taken < (size_t)limit)
        limit = (int)(d->shared_bytes_per_sm / taken);
    /* registers (cudaOccMaxBlocksPerSMRegsLimit) */
    if (a->numRegs > 0) {
        const int parts = d->sm_partitions, per_warp = regs_per_warp(d, a->numRegs);
        const int warps_rounded = (warps + parts - 1) / parts * parts;
        if (a->numRegs > d->regs_per_thread || (long)per_warp * warps_rounded > d->regs_per_sm)
            return 0;
        const int by_regs = d->regs_per_sm / parts / per_warp * parts / warps;
        if (by_regs < limit)
            limit = by_regs;
    }
    return limit;
}

/* cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags (§6.9): blocks_per_sm; flags
 * cudaOccupancyDefault (0) or cudaOccupancyDisableCachingOverride (1: no effect from
 * compute capability 7.0 on). A block size of 0 or less is cudaErrorInvalidValue. */
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *num, const void *func,
                                                                   int block_size, size_t dyn,
                                                                   unsigned flags);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *num, const void *func,
                                                                   int block_size, size_t dyn,
                                                                   unsigned flags)
{
    CR_API();
    if (cr_init() != 0)
        return ret(E_MEMORY_ALLOCATION);
    if (!num || block_size <= 0 || flags > 1)
        return ret(E_INVALID_VALUE);
    const ptx_module_t *m = NULL;
    cudaError_t e;
    const cr_func *f = kernel_of(func, &m, &e);
    if (!f)
        return ret(e);
    struct cudaFuncAttributes a;
    func_attributes(f, m, &a);
    *num = blocks_per_sm(f, &a, block_size, dyn);
    return E_OK;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *num, const void *func,
                                                          int block_size, size_t dyn);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *num, const void *func,
                                                          int block_size, size_t dyn)
{
    CR_API();
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(num, func, block_size, dyn, 0);
}

/* ------------------------------------------------------------------ devices */

cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDeviceCount(int *count)
{
    CR_API();
    if (!count)
        return ret(E_INVALID_VALUE);
    *count = 1;
    return E_OK;
}

cudaError_t cudaGetDevice(int *device);
cudaError_t cudaGetDevice(int *device)
{
    CR_API();
    if (!device)
        return ret(E_INVALID_VALUE);
    *device = 0;
    return E_OK;
}

cudaError_t cudaSetDevice(int device);
cudaError_t cudaSetDevice(int device)
{
    CR_API();
    return device == 0 ? E_OK : ret(E_INVALID_DEVICE);
}

/* The device's flags (§6.1 cudaSetDeviceFlags): a schedule (cudaDeviceScheduleAuto,
 * Spin, Yield or BlockingSync), cudaDeviceMapHost, cudaDeviceLmemResizeToMax; they
 * change nothing here (the host waits by running the kernels, pinned memory is always
 * mapped). Any other bit, or two schedules, is cudaErrorInvalidValue. */
cudaError_t cudaSetDeviceFlags(unsigned flags);
cudaError_t cudaSetDeviceFlags(unsigned flags)
{
    CR_API();
    const unsigned sched = flags & 0x07u;
    if ((flags & ~0x1Fu) || (sched != 0 && sched != 1 && sched != 2 && sched != 4))
        return ret(E_INVALID_VALUE);
    return E_OK;
}

/* Free and total device memory (§6.10 cudaMemGetInfo): the 80 GiB cudaDeviceProp's
 * totalGlobalMem says, less the device and managed allocations not yet freed. */
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total);
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    CR_API();
    if (!free_bytes || !total)
        return ret(E_INVALID_VALUE);
    if (cr_init() != 0)
        return ret(E_MEMORY_ALLOCATION);
    if (G.sticky)
        return ret(G.sticky);
    size_t used = 0;
    for (int i = 0; i < G.nallocs; i++)
        if (G.allocs[i].kind != 2)
            used += G.allocs[i].bytes;
    *total = (size_t)80 << 30;
    *free_bytes = used < *total ? *total - used : 0;
    return E_OK;
}

/* The modelled device's properties (sim_device_model; memory: 80 GiB). */
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device)
{
    CR_API();
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
    CR_API();
    return cudaGetDeviceProperties(p, device);
}

/* cudaDeviceGetAttribute (CUDA Runtime API §6.1): every cudaDeviceAttr of CUDA 13's
 * driver_types.h. Those the profile models come from cudaGetDeviceProperties; those
 * gpulearn has nothing for (textures and surfaces, PCI ids, NUMA, interop) are 0, as a
 * device without the feature reports; a value outside the enum is cudaErrorInvalidValue. */
cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device);
cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device)
{
    CR_API();
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
    CR_API();
    return ret(sync_point());
}

/* Frees every allocation and clears the errors, a sticky one too (§6.1). */
cudaError_t cudaDeviceReset(void);
cudaError_t cudaDeviceReset(void)
{
    CR_API();
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
    CR_API();
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
    CR_API();
    return __gpulearn_cudaMalloc(p, bytes, NULL, 0);
}

/* Unified memory (§6.10 cudaMallocManaged): one address on the host and in kernels. */
cudaError_t __gpulearn_cudaMallocManaged(void **p, size_t bytes, unsigned flags, const char *file,
                                         int line);
cudaError_t __gpulearn_cudaMallocManaged(void **p, size_t bytes, unsigned flags, const char *file,
                                         int line)
{
    CR_API();
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
    CR_API();
    return __gpulearn_cudaMallocManaged(p, bytes, flags, NULL, 0);
}

/* Pinned host memory (§6.10 cudaMallocHost): host memory that kernels may use too, at
 * the same address, as unified virtual addressing gives every pinned allocation on a
 * 64-bit GPU (CUDA C++ Programming Guide, "Unified Virtual Address Space": no
 * cudaHostGetDevicePointer needed): the simulator's mapped memory, as managed memory. */
cudaError_t cudaMallocHost(void **p, size_t bytes);
cudaError_t cudaMallocHost(void **p, size_t bytes)
{
    CR_API();
    if (!p)
        return ret(E_INVALID_VALUE);
    if (cr_init() != 0)
        return ret(E_MEMORY_ALLOCATION);
    char name[64], where[96];
    alloc_label(NULL, 0, name, sizeof name, where, sizeof where);
    uint64_t d;
    if (sim_malloc_mapped(G.sim, bytes, name, &d) != SIM_OK)
        return ret(E_MEMORY_ALLOCATION);
    if (add_alloc(d, bytes, 2, name, where) != 0) {
        sim_mfree(G.sim, d);
        return ret(E_MEMORY_ALLOCATION);
    }
    *p = (void *)(uintptr_t)d;
    return E_OK;
}

/* cudaMallocHost with flags (§6.10 cudaHostAlloc): cudaHostAllocPortable, Mapped and
 * WriteCombined change nothing here (one device; pinned memory is always mapped); any
 * other bit is cudaErrorInvalidValue. */
cudaError_t cudaHostAlloc(void **p, size_t bytes, unsigned flags);
cudaError_t cudaHostAlloc(void **p, size_t bytes, unsigned flags)
{
    CR_API();
    if (flags & ~0x07u)
        return ret(E_INVALID_VALUE);
    return cudaMallocHost(p, bytes);
}

/* The device pointer of pinned host memory (§6.10 cudaHostGetDevicePointer): the host
 * pointer itself; flags must be 0, and a pointer outside pinned memory is
 * cudaErrorInvalidValue. */
cudaError_t cudaHostGetDevicePointer(void **dev, void *host, unsigned flags);
cudaError_t cudaHostGetDevicePointer(void **dev, void *host, unsigned flags)
{
    CR_API();
    const uint64_t h = (uint64_t)(uintptr_t)host;
    if (!dev || flags)
        return ret(E_INVALID_VALUE);
    for (int i = 0; i < G.nallocs; i++)
        if (G.allocs[i].kind == 2 && h >= G.allocs[i].ptr &&
            h - G.allocs[i].ptr < (G.allocs[i].bytes ? G.allocs[i].bytes : 1)) {
            *dev = host;
            return E_OK;
        }
    return ret(E_INVALID_VALUE);
}

cudaError_t cudaFreeHost(void *p);
cudaError_t cudaFreeHost(void *p)
{
    CR_API();
    if (!p)
        return E_OK;
    cr_alloc *a = find_alloc((uint64_t)(uintptr_t)p, 2);
    if (!a)
        return ret(E_INVALID_VALUE);
    sim_mfree(G.sim, a->ptr);
    drop_alloc(a);
    return E_OK;
}

/* The caller's file:line of the API call in progress ("prog.cu:30", set by the
 * __gpulearn_ entry points the clang header calls), or "": named in its messages. */
static char cr_at[96];

/* Sets cr_at from file and line (NULL, 0: unknown). */
static void set_at(const char *file, int line)
{
    cr_at[0] = '\0';
    if (file && line > 0) {
        const char *base = strrchr(file, '/');
        snprintf(cr_at, sizeof cr_at, "%s:%d", base ? base + 1 : file, line);
    }
}

/* Why cudaFree(p) is refused (§6.10: cudaErrorInvalidValue), on stderr: freed already
 * (the allocation and the cudaFree that freed it), pinned host memory, a pointer into
 * an allocation but not its start, host memory, or none of these. a: p's cudaMallocHost
 * allocation, or NULL. */
static void explain_free(void *p, const cr_alloc *a)
{
    const uint64_t d = (uint64_t)(uintptr_t)p;
    char call[160];
    snprintf(call, sizeof call, "cudaFree(%p)%s%s", p, cr_at[0] ? " at " : "", cr_at);
    const char *rc = "cudaFree returns cudaErrorInvalidValue";
    cr_alloc *in, *past;
    const unsigned n = G.nfreed < CR_FREED ? G.nfreed : CR_FREED;
    for (unsigned i = 0; i < n; i++) {
        const cr_freed *f = &G.freed[(G.nfreed - 1 - i) % CR_FREED];
        if (f->ptr == d) {
            cr_note("%s: '%s' (%zu bytes%s%s) was freed already%s%s; %s", call, f->name, f->bytes,
                    f->where[0] ? ", allocated at " : "", f->where,
                    f->freed_at[0] ? ", by the cudaFree at " : "", f->freed_at, rc);
            return;
        }
    }
    if (a)
        cr_note("%s: pinned host memory from cudaMallocHost or cudaHostAlloc: free it with "
                "cudaFreeHost; %s",
                call, rc);
    else if ((in = device_range(d, 1, &past)) != NULL)
        cr_note("%s: %llu bytes into '%s' (%zu bytes%s%s), not its start: cudaFree takes the "
                "pointer cudaMalloc returned; %s",
                call, (unsigned long long)(d - in->ptr), in->name, in->bytes,
                in->where[0] ? ", allocated at " : "", in->where, rc);
    else if (host_mapped(d))
        cr_note("%s: host memory (malloc, new, a variable), not device memory from cudaMalloc; "
                "%s",
                call, rc);
    else
        cr_note("%s: not a pointer cudaMalloc or cudaMallocManaged returned; %s", call, rc);
}

/* Frees device or managed memory (§6.10); a pointer not from cudaMalloc or
 * cudaMallocManaged, or freed already, is cudaErrorInvalidValue with a message naming
 * the call's file:line (NULL, 0: unknown) and what the pointer is. */
cudaError_t __gpulearn_cudaFree(void *p, const char *file, int line);
cudaError_t __gpulearn_cudaFree(void *p, const char *file, int line)
{
    CR_API();
    if (!p)
        return E_OK;
    cudaError_t e = sync_point();
    if (e != E_OK) {
        cr_alloc *r = find_alloc((uint64_t)(uintptr_t)p, -1);
        if (r)
            r->free_refused = 1;
        return ret(e);
    }
    set_at(file, line);
    cr_alloc *a = find_alloc((uint64_t)(uintptr_t)p, -1);
    if (!a || a->kind == 2) {
        explain_free(p, a);
        cr_at[0] = '\0';
        return ret(E_INVALID_VALUE);
    }
    cr_freed *f = &G.freed[G.nfreed++ % CR_FREED];
    f->ptr = a->ptr;
    f->bytes = a->bytes;
    memcpy(f->name, a->name, sizeof f->name);
    memcpy(f->where, a->where, sizeof f->where);
    memcpy(f->freed_at, cr_at, sizeof f->freed_at);
    cr_at[0] = '\0';
    sim_mfree(G.sim, a->ptr);
    drop_alloc(a);
    return E_OK;
}

cudaError_t cudaFree(void *p);
cudaError_t cudaFree(void *p)
{
    CR_API();
    return __gpulearn_cudaFree(p, NULL, 0);
}

/* Where a copy's pointer lies: 1 device memory of n bytes from p, 0 host memory, -1 an
 * allocation's start with n past its end (message printed, naming the allocation and
 * the call's file:line, cr_at). */
static int where(const char *fn, uint64_t p, size_t n)
{
    cr_alloc *a, var;
    if (device_range(p, n, &a))
        return 1;
    for (int i = 0; i < G.nvars && !a; i++) { /* a cudaGetSymbolAddress pointer */
        const cr_var *v = &G.vars[i];
        if (!v->dptr || p < v->dptr || p - v->dptr >= (v->bytes ? v->bytes : 1))
            continue;
        if (n <= v->bytes - (p - v->dptr))
            return 1;
        memset(&var, 0, sizeof var);
        var.ptr = v->dptr;
        var.bytes = v->bytes;
        snprintf(var.name, sizeof var.name, "%s", v->name);
        a = &var;
    }
    if (a) {
        const uint64_t off = p - a->ptr;
        const unsigned long long over = off + n - a->bytes;
        cr_note("%s%s%s: %zu bytes from offset %llu of '%s' (%zu bytes%s%s) pass its end by "
                "%llu byte%s; it returns cudaErrorInvalidValue",
                fn, cr_at[0] ? " at " : "", cr_at, n, (unsigned long long)off, a->name, a->bytes,
                a->where[0] ? ", allocated at " : "", a->where, over, over == 1 ? "" : "s");
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
        cr_note("%s%s%s: the %s pointer %p is not device memory, but the copy's kind says it "
                "is; it returns cudaErrorInvalidValue",
                fn, cr_at[0] ? " at " : "", cr_at, want_d && !wd ? "destination" : "source",
                want_d && !wd ? dst : src);
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

/* cudaMemcpy (§6.10) called at file:line (NULL, 0: unknown), which its messages name. */
cudaError_t __gpulearn_cudaMemcpy(void *dst, const void *src, size_t n, int kind, const char *file,
                                  int line);
cudaError_t __gpulearn_cudaMemcpy(void *dst, const void *src, size_t n, int kind, const char *file,
                                  int line)
{
    CR_API();
    cudaError_t e = sync_point();
    if (e != E_OK)
        return ret(e);
    set_at(file, line);
    e = copy("cudaMemcpy", dst, src, n, kind, 0);
    cr_at[0] = '\0';
    return e;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind)
{
    CR_API();
    return __gpulearn_cudaMemcpy(dst, src, n, kind, NULL, 0);
}

/* Pitched device memory (§6.10 cudaMallocPitch): rows of `width` bytes, each starting
 * at a multiple of 512 bytes (the modelled device's texture alignment). */
cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height);
cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height)
{
    CR_API();
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
    CR_API();
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
    CR_API();
    (void)p, (void)n, (void)device, (void)stream;
    return G.sticky ? G.sticky : E_OK;
}

cudaError_t cudaMemAdvise(const void *p, size_t n, int advice, int device);
cudaError_t cudaMemAdvise(const void *p, size_t n, int advice, int device)
{
    CR_API();
    (void)p, (void)n, (void)advice, (void)device;
    return E_OK;
}

/* Streams run in order and synchronously here: the async forms are the plain ones.
 * cudaMemcpyAsync called at file:line (NULL, 0: unknown), which its messages name. */
cudaError_t __gpulearn_cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind,
                                       const char *file, int line);
cudaError_t __gpulearn_cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind,
                                       const char *file, int line)
{
    CR_API();
    cudaError_t e = sync_point();
    if (e != E_OK)
        return ret(e);
    set_at(file, line);
    e = copy("cudaMemcpyAsync", dst, src, n, kind, 0);
    cr_at[0] = '\0';
    return e;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *stream);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *stream)
{
    CR_API();
    (void)stream;
    return __gpulearn_cudaMemcpyAsync(dst, src, n, kind, NULL, 0);
}

static cudaError_t memset_device(const char *fn, void *p, int value, size_t n);

/* Sets n bytes of device memory to the byte value (§6.10), called at file:line (NULL,
 * 0: unknown), which its messages name. */
cudaError_t __gpulearn_cudaMemset(void *p, int value, size_t n, const char *file, int line);
cudaError_t __gpulearn_cudaMemset(void *p, int value, size_t n, const char *file, int line)
{
    CR_API();
    set_at(file, line);
    const cudaError_t e = memset_device("cudaMemset", p, value, n);
    cr_at[0] = '\0';
    return e;
}

cudaError_t cudaMemset(void *p, int value, size_t n);
cudaError_t cudaMemset(void *p, int value, size_t n)
{
    CR_API();
    return __gpulearn_cudaMemset(p, value, n, NULL, 0);
}

/* cudaMemset's work for the call fn ("cudaMemset", "cudaMemsetAsync"), its messages
 * naming fn and cr_at. */
static cudaError_t memset_device(const char *fn, void *p, int value, size_t n)
{
    if (cr_init() != 0)
        return ret(E_MEMORY_ALLOCATION);
    if (G.sticky)
        return ret(G.sticky);
    if (n == 0)
        return E_OK;
    const uint64_t d = (uint64_t)(uintptr_t)p;
    const int w = where(fn, d, n);
    if (w <= 0) {
        if (w == 0)
            cr_note("%s%s%s: %p is not device memory; it returns cudaErrorInvalidValue", fn,
                    cr_at[0] ? " at " : "", cr_at, p);
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

/* cudaMemsetAsync called at file:line (NULL, 0: unknown): cudaMemset's work. */
cudaError_t __gpulearn_cudaMemsetAsync(void *p, int value, size_t n, const char *file, int line);
cudaError_t __gpulearn_cudaMemsetAsync(void *p, int value, size_t n, const char *file, int line)
{
    CR_API();
    set_at(file, line);
    const cudaError_t e = memset_device("cudaMemsetAsync", p, value, n);
    cr_at[0] = '\0';
    return e;
}

cudaError_t cudaMemsetAsync(void *p, int value, size_t n, void *stream);
cudaError_t cudaMemsetAsync(void *p, int value, size_t n, void *stream)
{
    CR_API();
    (void)stream;
    return __gpulearn_cudaMemsetAsync(p, value, n, NULL, 0);
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
    CR_API();
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
    CR_API();
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
    CR_API();
    uint64_t d;
    size_t bytes;
    cudaError_t e = symbol_address(symbol, &d, &bytes);
    if (e != E_OK)
        return ret(e);
    for (int i = 0; i < G.nvars; i++)
        if (G.vars[i].host == symbol)
            G.vars[i].dptr = d, G.vars[i].bytes = bytes;
    *p = (void *)(uintptr_t)d;
    return E_OK;
}

/* ------------------------------------------------------------ streams, events */

cudaError_t cudaStreamCreate(void **stream);
cudaError_t cudaStreamCreate(void **stream)
{
    CR_API();
    if (!stream)
        return ret(E_INVALID_VALUE);
    *stream = malloc(1);
    return *stream ? E_OK : ret(E_MEMORY_ALLOCATION);
}

cudaError_t cudaStreamCreateWithFlags(void **stream, unsigned flags);
cudaError_t cudaStreamCreateWithFlags(void **stream, unsigned flags)
{
    CR_API();
    (void)flags;
    return cudaStreamCreate(stream);
}

cudaError_t cudaStreamSynchronize(void *stream);
cudaError_t cudaStreamSynchronize(void *stream)
{
    CR_API();
    (void)stream;
    return ret(sync_point());
}

cudaError_t cudaStreamDestroy(void *stream);
cudaError_t cudaStreamDestroy(void *stream)
{
    CR_API();
    free(stream);
    return E_OK;
}

cudaError_t cudaEventCreate(cr_event **ev);
cudaError_t cudaEventCreate(cr_event **ev)
{
    CR_API();
    if (!ev)
        return ret(E_INVALID_VALUE);
    *ev = calloc(1, sizeof **ev);
    return *ev ? E_OK : ret(E_MEMORY_ALLOCATION);
}

cudaError_t cudaEventCreateWithFlags(cr_event **ev, unsigned flags);
cudaError_t cudaEventCreateWithFlags(cr_event **ev, unsigned flags)
{
    CR_API();
    (void)flags;
    return cudaEventCreate(ev);
}

/* Records the modelled device time (launches and copies so far). */
cudaError_t cudaEventRecord(cr_event *ev, void *stream);
cudaError_t cudaEventRecord(cr_event *ev, void *stream)
{
    CR_API();
    (void)stream;
    if (!ev)
        return ret(E_INVALID_RESOURCE_HANDLE);
    ev->ns = G.now_ns;
    ev->recorded = 1;
    return E_OK;
}

/* A stream waits for an event (§6.5 cudaStreamWaitEvent): streams run in order and
 * synchronously here, so the event has happened; a NULL event is
 * cudaErrorInvalidResourceHandle, flags other than 0 or cudaEventWaitExternal (1)
 * cudaErrorInvalidValue. */
cudaError_t cudaStreamWaitEvent(void *stream, cr_event *ev, unsigned flags);
cudaError_t cudaStreamWaitEvent(void *stream, cr_event *ev, unsigned flags)
{
    CR_API();
    (void)stream;
    if (!ev)
        return ret(E_INVALID_RESOURCE_HANDLE);
    if (flags > 1)
        return ret(E_INVALID_VALUE);
    return G.sticky ? ret(G.sticky) : E_OK;
}

cudaError_t cudaEventSynchronize(cr_event *ev);
cudaError_t cudaEventSynchronize(cr_event *ev)
{
    CR_API();
    if (!ev)
        return ret(E_INVALID_RESOURCE_HANDLE);
    return ret(sync_point());
}

/* Whether the work before the event has completed (§6.6): always, as streams are
 * synchronous, so cudaSuccess, or the sticky error of a kernel that faulted. */
cudaError_t cudaEventQuery(cr_event *ev);
cudaError_t cudaEventQuery(cr_event *ev)
{
    CR_API();
    if (!ev)
        return ret(E_INVALID_RESOURCE_HANDLE);
    return ret(sync_point());
}

/* The same for a stream (§6.4). */
cudaError_t cudaStreamQuery(void *stream);
cudaError_t cudaStreamQuery(void *stream)
{
    CR_API();
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
    CR_API();
    return E_OK;
}

cudaError_t cudaProfilerStop(void);
cudaError_t cudaProfilerStop(void)
{
    CR_API();
    return E_OK;
}

/* Milliseconds of modelled device time between two recorded events; the simulator's
 * model, not a measurement, as stderr says once. */
cudaError_t cudaEventElapsedTime(float *ms, cr_event *a, cr_event *b);
cudaError_t cudaEventElapsedTime(float *ms, cr_event *a, cr_event *b)
{
    CR_API();
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
    CR_API();
    free(ev);
    return E_OK;
}
