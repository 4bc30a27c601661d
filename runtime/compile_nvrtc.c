/* compile_nvrtc.c — NVRTC (NVRTC User Guide), loaded with dlopen so that gpulearn never
 * links against the CUDA Toolkit, and run in a child process that sends the PTX back. */
#define _GNU_SOURCE /* dladdr */
#include "runtime/compile_internal.h"

#include "runtime/arch.h"
#include "runtime/cubin.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef GL_HAVE_CUDA_H
#include <nvrtc.h>
#endif

#ifdef GL_HAVE_CUDA_H
/* The NVRTC entry points we use (NVRTC User Guide §3, "Compilation"). */
#define NVRTC_SYMBOLS(X)                                                                           \
    X(nvrtcGetErrorString)                                                                         \
    X(nvrtcCreateProgram)                                                                          \
    X(nvrtcDestroyProgram)                                                                         \
    X(nvrtcCompileProgram)                                                                         \
    X(nvrtcGetPTXSize)                                                                             \
    X(nvrtcGetPTX)                                                                                 \
    X(nvrtcGetProgramLogSize)                                                                      \
    X(nvrtcGetProgramLog)                                                                          \
    X(nvrtcGetCUBINSize)                                                                           \
    X(nvrtcGetCUBIN)                                                                               \
    X(nvrtcVersion)

/* libnvrtc, loaded once on first use and kept for the life of the process. */
static struct {
    int tried;
    void *handle;
    char why[1024];
    char soname[512];
#define X(name) __typeof__(&name) p_##name;
    NVRTC_SYMBOLS(X)
#undef X
} nvrtc;

/* dlopen's libnvrtc: $CUDA_HOME/lib64, /usr/local/cuda/lib64, then the loader's path
 * (.so.13, .so.12, .so). Returns 1 when every symbol resolved; nvrtc.why says why not. */
/* Where nvrtc_load looks for libnvrtc, in order: $CUDA_HOME/lib64/libnvrtc.so,
 * /usr/local/cuda/lib64/libnvrtc.so, then the loader's search for the sonames.
 * Returns the number of candidates written to cands. */
static int nvrtc_candidates(char cands[5][512])
{
    int nc = 0;
    const char *home = getenv("CUDA_HOME");
    if (home && *home)
        snprintf(cands[nc++], sizeof cands[0], "%.480s/lib64/libnvrtc.so", home);
    snprintf(cands[nc++], sizeof cands[0], "/usr/local/cuda/lib64/libnvrtc.so");
    snprintf(cands[nc++], sizeof cands[0], "libnvrtc.so.13");
    snprintf(cands[nc++], sizeof cands[0], "libnvrtc.so.12");
    snprintf(cands[nc++], sizeof cands[0], "libnvrtc.so");
    return nc;
}

/* The file nvrtc_load would load first when it is one of the absolute candidates that
 * exists: 1 with its path in buf. 0 when the loader's search would decide (or there is
 * no library): only loading it tells then. */
static int nvrtc_file(char *buf, size_t n)
{
    if (nvrtc.tried)
        return nvrtc.handle && nvrtc.soname[0] == '/' &&
               snprintf(buf, n, "%s", nvrtc.soname) < (int)n;
    char cands[5][512];
    const int nc = nvrtc_candidates(cands);
    for (int i = 0; i < nc && cands[i][0] == '/'; i++)
        if (access(cands[i], R_OK) == 0)
            return snprintf(buf, n, "%s", cands[i]) < (int)n;
    return 0;
}

static int nvrtc_load(void)
{
    if (nvrtc.tried)
        return nvrtc.handle != NULL;
    nvrtc.tried = 1;
    char cands[5][512];
    const int nc = nvrtc_candidates(cands);
    const char *first_err = NULL;
    char first[512] = "";
    for (int i = 0; i < nc && !nvrtc.handle; i++) {
        nvrtc.handle = dlopen(cands[i], RTLD_NOW | RTLD_LOCAL);
        if (nvrtc.handle) {
            memcpy(nvrtc.soname, cands[i], sizeof nvrtc.soname);
        } else if (!first_err) {
            first_err = dlerror();
            snprintf(first, sizeof first, "%.500s", first_err ? first_err : cands[i]);
        }
    }
    if (!nvrtc.handle) {
        snprintf(nvrtc.why, sizeof nvrtc.why, "nvrtc: libnvrtc.so not found (%s)", first);
        return 0;
    }
#define resolve(name)                                                                              \
    do {                                                                                           \
        nvrtc.p_##name = (__typeof__(nvrtc.p_##name))dlsym(nvrtc.handle, #name);                   \
        if (!nvrtc.p_##name) {                                                                     \
            snprintf(nvrtc.why, sizeof nvrtc.why, "nvrtc: %.512s has no %s", nvrtc.soname, #name); \
            goto fail;                                                                             \
        }                                                                                          \
    } while (0)
#define X(name) resolve(name);
    NVRTC_SYMBOLS(X)
#undef X
#undef resolve
    return 1;
fail:
    dlclose(nvrtc.handle);
    nvrtc.handle = NULL;
    return 0;
}

/* <prelude folder>/nvrtc (runtime/prelude/nvrtc: stdio.h, stdint.h, math.h, ... for
 * NVRTC, which has none). Returns 1 with buf set, 0 when the prelude is not found. */
static int nvrtc_libc_dir(char *buf, size_t n)
{
    char prelude[PATH_MAX];
    if (!gl_compile_find_prelude(prelude, sizeof prelude))
        return 0;
    const char *slash = strrchr(prelude, '/');
    snprintf(buf, n, "%.*s/nvrtc", slash ? (int)(slash - prelude) : 1, slash ? prelude : ".");
    return access(buf, R_OK) == 0;
}

/* The CUDA Toolkit's include directory, where cuda_fp16.h and cuda_bf16.h live, for
 * NVRTC's --include-path (NVRTC has no default search path for them: "could not open
 * source file cuda_fp16.h (no directories in search list)"; nvcc adds it itself):
 * $CUDA_HOME/include, the include/ beside the libnvrtc loaded, /usr/local/cuda/include.
 * Returns 1 with buf set, 0 when none has cuda_fp16.h. */
static int nvrtc_include_dir(char *buf, size_t n)
{
    char cands[3][600];
    int nc = 0;
    const char *home = getenv("CUDA_HOME");
    if (home && *home)
        snprintf(cands[nc++], sizeof cands[0], "%.500s/include", home);
    const char *slash = strrchr(nvrtc.soname, '/');
    if (slash) /* <root>/lib64/libnvrtc.so -> <root>/lib64/../include */
        snprintf(cands[nc++], sizeof cands[0], "%.*s/../include", (int)(slash - nvrtc.soname),
                 nvrtc.soname);
    snprintf(cands[nc++], sizeof cands[0], "/usr/local/cuda/include");
    for (int i = 0; i < nc; i++) {
        char probe[640];
        snprintf(probe, sizeof probe, "%.580s/cuda_fp16.h", cands[i]);
        size_t len = strlen(cands[i]);
        if (access(probe, R_OK) == 0 && len < n) {
            memcpy(buf, cands[i], len + 1);
            return 1;
        }
    }
    return 0;
}

/* Appends s to the string buf[n] whose length is *at, as much as fits. */
static void cmd_append(char *buf, size_t n, size_t *at, const char *s)
{
    size_t len = strlen(s);
    if (*at + 1 >= n)
        return;
    if (len > n - 1 - *at)
        len = n - 1 - *at;
    memcpy(buf + *at, s, len);
    *at += len;
    buf[*at] = '\0';
}

/* Registers per thread where no ptxas counts them (cc_count_regs): NVRTC compiles src
 * again with the same options but for the real target sm_<archnum>, and the cubin it
 * makes (nvrtcGetCUBIN, NVRTC User Guide §3.2; its PTX for sm_N is the one for
 * compute_N) gives the table into out->regs, else out->regs_why says why not. */
static void nvrtc_count_regs(const char *path, const char *src, const char *archnum,
                             const char **options, int noptions, gl_compiled *out)
{
    char arch[64];
    snprintf(arch, sizeof arch, "--gpu-architecture=sm_%s", archnum);
    const char *opts[8];
    for (int i = 0; i < noptions && i < 8; i++)
        opts[i] = i == 0 ? arch : options[i];
    nvrtcProgram prog;
    nvrtcResult r = nvrtc.p_nvrtcCreateProgram(&prog, src, path, 0, NULL, NULL);
    if (r != NVRTC_SUCCESS) {
        snprintf(out->regs_why, sizeof out->regs_why, "nvrtc %s: %s", arch,
                 nvrtc.p_nvrtcGetErrorString(r));
        return;
    }
    size_t n = 0;
    char *bin = NULL;
    if ((r = nvrtc.p_nvrtcCompileProgram(prog, noptions, opts)) == NVRTC_SUCCESS &&
        (r = nvrtc.p_nvrtcGetCUBINSize(prog, &n)) == NVRTC_SUCCESS && n > 0 &&
        (bin = malloc(n)) != NULL && (r = nvrtc.p_nvrtcGetCUBIN(prog, bin)) == NVRTC_SUCCESS) {
        char why[200];
        out->regs = gl_cubin_regs(bin, n, gl_arch_sm(archnum), why, sizeof why);
        if (!out->regs)
            snprintf(out->regs_why, sizeof out->regs_why,
                     "nvrtc %s made a cubin gpulearn cannot read: %.120s", arch, why);
    } else {
        snprintf(out->regs_why, sizeof out->regs_why, "nvrtc %s: %s", arch,
                 r != NVRTC_SUCCESS ? nvrtc.p_nvrtcGetErrorString(r) : "no cubin");
    }
    free(bin);
    nvrtc.p_nvrtcDestroyProgram(&prog);
}

static try_result nvrtc_compile_here(const char *path, const char *archnum, int debug,
                                     const char *src, gl_compiled *out, char *why, size_t whylen,
                                     gl_error *err)
{
    if (!nvrtc_load()) {
        snprintf(why, whylen, "%s", nvrtc.why);
        return TRY_UNAVAILABLE;
    }
    char arch[64];
    snprintf(arch, sizeof arch, "--gpu-architecture=compute_%s", archnum);
    char incdir[600], incopt[640] = "", cccl[660], ccclopt[700] = "";
    if (nvrtc_include_dir(incdir, sizeof incdir)) {
        snprintf(incopt, sizeof incopt, "--include-path=%s", incdir);
        /* CUDA 13 moved libcu++, CUB and Thrust (CCCL) to include/cccl, which nvcc
         * searches itself: cooperative_groups.h includes <cuda/std/type_traits> */
        snprintf(cccl, sizeof cccl, "%s/cccl/cuda/std", incdir);
        if (access(cccl, R_OK) == 0)
            snprintf(ccclopt, sizeof ccclopt, "--include-path=%s/cccl", incdir);
    }
    /* the C library headers NVRTC lacks (prelude/nvrtc), searched last */
    char libc[PATH_MAX + 16], libcopt[PATH_MAX + 32] = "", firstopt[PATH_MAX + 48] = "";
    if (nvrtc_libc_dir(libc, sizeof libc)) {
        snprintf(libcopt, sizeof libcopt, "--include-path=%s", libc);
        /* prelude/nvrtc/first, searched before the Toolkit's: cub/cub.cuh without
         * CUB's device-wide algorithms, which are host code (see that header) */
        if (ccclopt[0])
            snprintf(firstopt, sizeof firstopt, "--include-path=%s/first", libc);
    }
    const char *options[7] = {arch, debug ? "-G" : "-lineinfo"};
    int noptions = 2;
    if (firstopt[0])
        options[noptions++] = firstopt;
    if (incopt[0])
        options[noptions++] = incopt;
    if (ccclopt[0])
        options[noptions++] = ccclopt;
    if (libcopt[0]) {
        options[noptions++] = libcopt;
        /* nvcc includes the CUDA runtime headers, and with them math.h, in every .cu
         * file: INFINITY, NAN and M_PI need no #include there, nor here */
        options[noptions++] = "--pre-include=math.h";
    }
    /* "nvrtc OPTION ... (library)", cut short where it does not fit */
    size_t at = 0;
    out->command[0] = '\0';
    cmd_append(out->command, sizeof out->command, &at, "nvrtc");
    for (int i = 0; i < noptions; i++) {
        cmd_append(out->command, sizeof out->command, &at, " ");
        cmd_append(out->command, sizeof out->command, &at, options[i]);
    }
    cmd_append(out->command, sizeof out->command, &at, " (");
    cmd_append(out->command, sizeof out->command, &at, nvrtc.soname);
    cmd_append(out->command, sizeof out->command, &at, ")");

    nvrtcProgram prog;
    /* The program name is the path, so diagnostics and .file carry it. */
    nvrtcResult r = nvrtc.p_nvrtcCreateProgram(&prog, src, path, 0, NULL, NULL);
    if (r != NVRTC_SUCCESS) {
        snprintf(why, whylen, "nvrtc: nvrtcCreateProgram: %s", nvrtc.p_nvrtcGetErrorString(r));
        return TRY_UNAVAILABLE;
    }
    try_result result = TRY_UNAVAILABLE;
    char *log = NULL;
    nvrtcResult rc = nvrtc.p_nvrtcCompileProgram(prog, noptions, options);
    size_t logsize = 0;
    if (nvrtc.p_nvrtcGetProgramLogSize(prog, &logsize) == NVRTC_SUCCESS && logsize > 1) {
        log = malloc(logsize + 1);
        if (log && nvrtc.p_nvrtcGetProgramLog(prog, log) == NVRTC_SUCCESS)
            log[logsize] = '\0';
        else {
            free(log);
            log = NULL;
        }
    }
    if (rc == NVRTC_ERROR_COMPILATION) {
        cc_compile_failed(log, path, "nvrtc", out, err);
        result = TRY_COMPILE_ERROR;
    } else if (rc != NVRTC_SUCCESS) {
        snprintf(why, whylen, "nvrtc: nvrtcCompileProgram: %s%s%.300s",
                 nvrtc.p_nvrtcGetErrorString(rc), log ? ": " : "", log ? log : "");
    } else {
        size_t n = 0;
        if (nvrtc.p_nvrtcGetPTXSize(prog, &n) == NVRTC_SUCCESS && n > 0 &&
            (out->ptx = malloc(n + 1)) != NULL &&
            nvrtc.p_nvrtcGetPTX(prog, out->ptx) == NVRTC_SUCCESS) {
            out->ptx[n] = '\0';
            cc_keep_warnings(log, path, out);
            result = TRY_OK;
            char ptxas[PATH_MAX];
            if (!debug && !gl_compile_find_ptxas(ptxas, sizeof ptxas))
                nvrtc_count_regs(path, src, archnum, options, noptions, out);
        } else {
            free(out->ptx);
            out->ptx = NULL;
            snprintf(why, whylen, "nvrtc: nvrtcGetPTX failed");
        }
    }
    free(log);
    nvrtc.p_nvrtcDestroyProgram(&prog);
    return result;
}

/* NVRTC runs in a child process. libnvrtc (CUDA 13) may load libcuda and call cuInit;
 * a process that initialised CUDA cannot fork a working GPU worker (cuInit then fails
 * with CUDA_ERROR_NOT_INITIALIZED in the child, seen on an H200 with driver 580), and
 * the parent must stay CUDA-free (runtime/worker.h). The child compiles and sends back
 * the result, the messages and the PTX. */
typedef struct nvrtc_args {
    const char *path, *archnum, *src;
    int debug;
} nvrtc_args;

/* cc_try_nvrtc's child (a gl_child body): compiles and sends the result, the messages and
 * the PTX. */
static void nvrtc_child(int fd, void *arg)
{
    const nvrtc_args *a = arg;
    gl_compiled c = {0};
    gl_error e = {0};
    char w[1024] = "";
    try_result r = nvrtc_compile_here(a->path, a->archnum, a->debug, a->src, &c, w, sizeof w, &e);
    int ok = cc_send(fd, CC_MSG_WHY, 0, w) == 0 &&
             cc_send(fd, CC_MSG_ERROR, (uint32_t)e.status, e.msg) == 0 &&
             cc_send(fd, CC_MSG_COMMAND, 0, c.command) == 0 &&
             cc_send(fd, CC_MSG_PTX, 0, c.ptx) == 0 && cc_send(fd, CC_MSG_LOG, 0, c.log) == 0 &&
             cc_send(fd, CC_MSG_REGS, c.regs != NULL, c.regs) == 0 &&
             cc_send(fd, CC_MSG_REGS_WHY, 0, c.regs_why) == 0 &&
             gl_child_send(fd, CC_MSG_DIAGS, 0, c.diags, (size_t)c.ndiags * sizeof *c.diags) == 0 &&
             gl_child_send(fd, CC_MSG_DONE, (uint32_t)r, NULL, 0) == 0;
    _exit(ok ? 0 : 1);
}

try_result cc_try_nvrtc(const char *path, const char *archnum, int debug, const char *src,
                        gl_compiled *out, char *why, size_t whylen, gl_error *err)
{
    nvrtc_args a = {path, archnum, src, debug};
    const gl_child_opts o = {
        .setup = cc_compile_limits}; /* its CPU time bounds a compile that never ends */
    gl_child ch;
    if (gl_child_spawn(&ch, &o, nvrtc_child, &a) != 0)
        return nvrtc_compile_here(path, archnum, debug, src, out, why, whylen, err);
    cc_reply rep;
    const int ok = cc_receive(ch.fd, GL_CHILD_FOREVER, &rep) == GL_MSG_OK;
    gl_child_exit ex;
    gl_child_close(&ch);
    gl_child_wait(&ch, GL_CHILD_FOREVER, &ex);
    try_result r = TRY_UNAVAILABLE;
    if (!ok) {
        snprintf(why, whylen, "nvrtc: the compiler process failed (%s)",
                 ex.signal ? strsignal(ex.signal) : "no result");
    } else {
        r = (try_result)rep.done;
        snprintf(why, whylen, "%s", rep.why);
        snprintf(out->command, sizeof out->command, "%s", rep.command);
        if (r == TRY_COMPILE_ERROR)
            gl_fail(err, (gl_status)rep.status, "%s", rep.msg);
        if (r == TRY_OK) {
            out->ptx = rep.ptx, rep.ptx = NULL;
            out->regs = rep.regs, rep.regs = NULL;
            snprintf(out->regs_why, sizeof out->regs_why, "%s", rep.regs_why);
        }
        if (*rep.log)
            out->log = rep.log, rep.log = NULL;
        out->diags = rep.diags, rep.diags = NULL;
        out->ndiags = rep.ndiags;
    }
    cc_reply_free(&rep);
    return r;
}
/* See compile_internal.h. */
void cc_nvrtc_key(gl_cache_sha256 *h)
{
    /* the library's identity, as for nvcc and clang, without loading it: a PTX taken
     * from the cache then never costs the dlopen of libnvrtc (about 100 MB); only
     * a library found by the loader's own search is loaded to ask its version */
    char lib[600];
    int known = nvrtc_file(lib, sizeof lib);
    if (known)
        gl_cache_sha256_file_id(h, "nvrtc", lib);
    else if (nvrtc_load()) {
        int major = 0, minor = 0;
        nvrtc.p_nvrtcVersion(&major, &minor);
        char id[600];
        int n = snprintf(id, sizeof id, "%d.%d %s", major, minor, nvrtc.soname);
        gl_cache_sha256_field(h, "nvrtc", id, (size_t)n < sizeof id ? (size_t)n : sizeof id - 1);
    }
    char dir[PATH_MAX + 16];
    if ((known || nvrtc.handle) && nvrtc_libc_dir(dir, sizeof dir))
        cc_key_tree(h, dir, "", 8);
}

/* See compile_internal.h. */
int cc_nvrtc_dir(char *buf, size_t n)
{
    Dl_info info;
    if (!nvrtc_load() || !dladdr((void *)nvrtc.p_nvrtcVersion, &info) || !info.dli_fname)
        return 0;
    snprintf(buf, n, "%s", info.dli_fname);
    char *slash = strrchr(buf, '/');
    if (!slash) {
        buf[0] = '\0';
        return 0;
    }
    *slash = '\0';
    return buf[0] != '\0';
}
#else
void cc_nvrtc_key(gl_cache_sha256 *h)
{
    (void)h;
}

int cc_nvrtc_dir(char *buf, size_t n)
{
    (void)buf, (void)n;
    return 0;
}

try_result cc_try_nvrtc(const char *path, const char *archnum, int debug, const char *src,
                        gl_compiled *out, char *why, size_t whylen, gl_error *err)
{
    (void)path, (void)archnum, (void)debug, (void)src, (void)out, (void)err;
    snprintf(why, whylen, "nvrtc: gpulearn was built without nvrtc.h (CUDA Toolkit)");
    return TRY_UNAVAILABLE;
}
#endif
