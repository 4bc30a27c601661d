/* program.c — whole CUDA programs: compiling one with clang in CUDA mode against
 * gpulearn's CUDA runtime (cudart/), and running it (program.h). */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runtime/arch.h"
#include "runtime/compile.h"
#include "runtime/cubin.h"
#include "runtime/program.h"
#include "runtime/program_cache.h"

#ifndef GL_CUDART_LIB
#define GL_CUDART_LIB "build/debug/libgpulearn_cudart.a"
#endif
/* Where the build found its libraries when built with DEPS_PREFIX (the Makefile), for a
 * program's link: "" when they are the system's */
#ifndef GL_PROGRAM_LIBDIR
#define GL_PROGRAM_LIBDIR ""
#endif
/* In a sanitizer build (make MODE=asan/ubsan) the cudart archive is instrumented: the
 * sanitizer's runtime, linked first into every program (ASan must come first). */
#ifndef GL_CUDART_SANLIB
#define GL_CUDART_SANLIB ""
#endif
#ifndef GL_CUDART_INCLUDE
#define GL_CUDART_INCLUDE "cudart/include"
#endif

/* The newest GPU target clang 14 knows (the prelude's oldest supported clang). */
#define PROG_CLANG_MAX_SM 86
/* The most arguments of one compiler command before gpulearn's own. */
#define PROG_MAXARGS 64

/* path of one of gpulearn's runtime files: $ENV, the build's (GL_...), then
 * <exe>/../share/gpulearn/cudart/<name> for installs. 1 if found. */
static int find_file(const char *env, const char *built, const char *name, char *buf, size_t n)
{
    const char *e = getenv(env);
    if (e && *e) {
        snprintf(buf, n, "%s", e);
        return access(buf, R_OK) == 0;
    }
    if (access(built, R_OK) == 0) {
        snprintf(buf, n, "%s", built);
        return 1;
    }
    char exe[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k <= 0)
        return 0;
    exe[k] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    if (snprintf(buf, n, "%s/../share/gpulearn/cudart/%s", exe, name) >= (int)n)
        return 0;
    return access(buf, R_OK) == 0;
}

int gl_program_runtime_paths(char *lib, size_t liblen, char *inc, size_t inclen)
{
    return find_file("GPULEARN_CUDART_LIB", GL_CUDART_LIB, "libgpulearn_cudart.a", lib, liblen) &&
           find_file("GPULEARN_CUDART_INCLUDE", GL_CUDART_INCLUDE, "include", inc, inclen);
}

int gl_program_sanitized(void)
{
    return GL_CUDART_SANLIB[0] != '\0';
}

/* Runs argv (stderr into errpath when not NULL, else passed through); its exit status,
 * -1 when a signal ended it, RUN_TOOL_NOT_STARTED when no process could be made for it
 * or it could not be executed (errno says why: EAGAIN past the sandbox's RLIMIT_NPROC,
 * EACCES outside the sandbox's Landlock rules, ENOENT). The child reports a failed
 * execv's errno through a close-on-exec pipe, which a successful one closes unwritten. */
#define RUN_TOOL_NOT_STARTED (-2)
static int run_tool(char *const argv[], const char *errpath, int verbose)
{
    if (verbose) {
        fputs("gpulearn:", stderr);
        for (int i = 0; argv[i]; i++)
            fprintf(stderr, " %s", argv[i]);
        fputc('\n', stderr);
    }
    fflush(NULL);
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0)
        return RUN_TOOL_NOT_STARTED;
    pid_t pid = fork();
    if (pid < 0) {
        const int e = errno;
        close(report[0]);
        close(report[1]);
        errno = e;
        return RUN_TOOL_NOT_STARTED;
    }
    if (pid == 0) {
        close(report[0]);
        if (errpath) {
            int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
            if (fd >= 0) {
                dup2(fd, 2);
                close(fd);
            }
        }
        execv(argv[0], argv);
        /* write(2) alone between fork and _exit: the parent may have threads */
        const int e = errno;
        _exit(write(report[1], &e, sizeof e) == (ssize_t)sizeof e ? 127 : 126);
    }
    close(report[1]);
    int exec_errno = 0;
    ssize_t got;
    while ((got = read(report[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR)
        ;
    close(report[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (got == (ssize_t)sizeof exec_errno) {
        errno = exec_errno;
        return RUN_TOOL_NOT_STARTED;
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Writes the wrapper cudart reads from clang's GPU binary slot: "GLPTX\n", the PTX, NUL. */
static int write_gpubin(const char *ptxpath, const char *out, gl_error *err)
{
    size_t len = 0;
    char *ptx = gl_read_file(ptxpath, &len, err);
    if (!ptx)
        return -1;
    FILE *f = fopen(out, "wb");
    int ok = f && fputs("GLPTX\n", f) >= 0 && fwrite(ptx, 1, len, f) == len && fputc(0, f) == 0;
    if (f && fclose(f) != 0)
        ok = 0;
    free(ptx);
    if (!ok)
        gl_fail(err, GL_ERR_TOOL, "%s: %s", out, strerror(errno));
    return ok ? 0 : -1;
}

/* The CUDA names a compiler's log gives after `pat` up to a quote (a link's
 * "undefined reference to `f'", clang's "undeclared identifier 'f'" and "unknown type
 * name 't'"), as a comma-separated list into buf; 0 when there are none. */
static int named_functions(const char *log, const char *pat, char *buf, size_t n)
{
    int count = 0;
    size_t used = 0;
    buf[0] = '\0';
    for (const char *p = log; (p = strstr(p, pat)) != NULL;) {
        p += strlen(pat);
        const char *e = strchr(p, '\'');
        if (e && strncmp(p, "cuda", 4) != 0 && strncmp(p, "__cuda", 6) != 0) {
            p = e;
            continue;
        }
        if (!e)
            break;
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(e - p < 127 ? e - p : 127), p);
        if (!strstr(buf, name) && used + strlen(name) + 3 < n) {
            used += (size_t)snprintf(buf + used, n - used, "%s%s", count ? ", " : "", name);
            count++;
        }
        p = e;
    }
    return count;
}

/* Runs one compile (argv) with its messages passed on to stderr: GL_OK, GL_ERR_COMPILE
 * with err saying that src does not compile, naming the CUDA functions and types clang
 * did not find declared (which gpulearn's runtime does not provide), or GL_ERR_TOOL when
 * the compiler could not be started. */
static gl_status compile(const char **argv, const char *dir, const char *src, const char *side,
                         int verbose, gl_error *err)
{
    char log[PATH_MAX];
    snprintf(log, sizeof log, "%s/compile.log", dir);
    const int rc = run_tool((char *const *)argv, log, verbose);
    if (rc == RUN_TOOL_NOT_STARTED)
        return gl_fail(err, GL_ERR_TOOL, "cannot start %s to compile %s: %s", argv[0], src,
                       strerror(errno));
    char *text = gl_read_file(log, NULL, NULL);
    if (text)
        fputs(text, stderr);
    gl_program_cache_log(dir, text);
    char names[1024] = "", types[1024] = "";
    if (rc != 0 && text && named_functions(text, "undeclared identifier '", names, sizeof names))
        gl_fail(err, GL_ERR_COMPILE,
                "%s does not compile: it calls %s: not provided by gpulearn's CUDA runtime", src,
                names);
    else if (rc != 0 && text && named_functions(text, "unknown type name '", types, sizeof types))
        gl_fail(err, GL_ERR_COMPILE,
                "%s does not compile: it uses %s: not provided by gpulearn's CUDA runtime", src,
                types);
    else if (rc != 0)
        gl_fail(err, GL_ERR_COMPILE, "%s does not compile (%s)", src, side);
    free(text);
    return rc == 0 ? GL_OK : GL_ERR_COMPILE;
}

/* Links objs with gpulearn's runtime library lib (NULL: none) into dir/prog (exe); a
 * CUDA function no object defines is named as not provided. extra: an option for the
 * driver, or NULL. */
static gl_status link_program(const char *driver, const char *extra, char **objs, int nobj,
                              const char *lib, const char *dir, char *exe, size_t exelen,
                              int verbose, gl_error *err)
{
    const char *argv[PROG_MAXARGS + 16];
    int n = 0;
    argv[n++] = driver;
    if (extra)
        argv[n++] = extra;
    snprintf(exe, exelen, "%s/prog", dir);
    argv[n++] = "-o";
    argv[n++] = exe;
    if (lib && GL_CUDART_SANLIB[0])
        argv[n++] = GL_CUDART_SANLIB;
    for (int i = 0; i < nobj && n < PROG_MAXARGS; i++)
        argv[n++] = objs[i];
    if (lib) {
        /* cudart's object even in a program that calls no CUDA function: its start (the
         * sandbox's SIGSYS handler) and its exit (leaks) run in every program */
        argv[n++] = strcmp(extra ? extra : "", "-cudart=none") == 0
                        ? "-Xlinker=--undefined=__cudaRegisterFatBinary"
                        : "-Wl,--undefined=__cudaRegisterFatBinary";
        argv[n++] = lib;
    }
    if (lib) { /* the simulator's special-function tables (sim/sfu.c) are zlib streams */
        if (GL_PROGRAM_LIBDIR[0])
            argv[n++] = "-L" GL_PROGRAM_LIBDIR;
        argv[n++] = "-lz";
    }
    argv[n++] = "-ldl";
    argv[n++] = "-lm";
    argv[n++] = "-lpthread";
    argv[n] = NULL;
    char log[PATH_MAX];
    snprintf(log, sizeof log, "%s/link.log", dir);
    const int rc = run_tool((char *const *)argv, log, verbose);
    if (rc == 0)
        return GL_OK;
    if (rc == RUN_TOOL_NOT_STARTED)
        return gl_fail(err, GL_ERR_TOOL, "cannot start %s to link the program: %s", driver,
                       strerror(errno));
    char *text = gl_read_file(log, NULL, NULL);
    char names[1024];
    gl_status st;
    if (text && named_functions(text, "undefined reference to `", names, sizeof names))
        st = gl_fail(err, GL_ERR_COMPILE,
                     "the program calls %s: not provided by gpulearn's CUDA runtime", names);
    else
        st = gl_fail(err, GL_ERR_COMPILE, "the program does not link:\n%s", text ? text : "");
    free(text);
    return st;
}

/* Adds the registers per thread of ptxpath's functions, as ptxas compiles them for
 * sm_<sm> (the cubin's table, runtime/cubin.h), to dir/regs: "sm_90\n<registers>
 * <name>\n..." (cudaFuncGetAttributes, cudaOccupancy*: cudart reads it through
 * GPULEARN_PROG_REGS). Nothing without ptxas (cudart then says registers are not
 * counted) or when it fails. i: the source's index (its cubin's name). */
static void count_regs(const char *ptxpath, int sm, const char *dir, int i, int verbose)
{
    char ptxas[PATH_MAX], cubin[PATH_MAX], arch[32], out[PATH_MAX + 8], why[256];
    if (!gl_compile_find_ptxas(ptxas, sizeof ptxas))
        return;
    snprintf(cubin, sizeof cubin, "%s/%d.cubin", dir, i);
    snprintf(arch, sizeof arch, "-arch=sm_%d", sm);
    char *argv[] = {ptxas, arch, "-o", cubin, (char *)ptxpath, NULL};
    char log[PATH_MAX + 16];
    snprintf(log, sizeof log, "%s/ptxas.log", dir);
    if (run_tool(argv, log, verbose) != 0)
        return;
    size_t len = 0;
    char *bin = gl_read_file(cubin, &len, NULL);
    char *table = bin ? gl_cubin_regs(bin, len, sm, why, sizeof why) : NULL;
    free(bin);
    snprintf(out, sizeof out, "%s/regs", dir);
    const int first = access(out, F_OK) != 0;
    FILE *f = table ? fopen(out, "a") : NULL;
    if (f) /* one "sm_N" line, then every source's functions */
        fputs(first ? table : table + strcspn(table, "\n") + 1, f);
    if (f)
        fclose(f);
    free(table);
}

/* The nvcc build: each source compiled by nvcc against the Toolkit's headers, its fat
 * binary carrying PTX for compute_<sm> uncompressed (which cudart reads), linked
 * without NVIDIA's runtime (-cudart none), with `-include sites`
 * (cudart/include/gpulearn_nvcc_sites.h: cudaMalloc, cudaFree, ... pass on their
 * file:line). o->native: an ordinary build for the GPU (-arch=sm_<sm>, or -arch=native
 * when sm is 0) with NVIDIA's runtime; lib and sites unused. */
static gl_status build_nvcc(const gl_program_opts *o, const char *nvcc, int sm, const char *lib,
                            const char *sites, const char *dir, char *exe, size_t exelen,
                            gl_error *err)
{
    char gencode[64], arch[32];
    snprintf(gencode, sizeof gencode, "arch=compute_%d,code=compute_%d", sm, sm);
    if (sm)
        snprintf(arch, sizeof arch, "-arch=sm_%d", sm);
    else
        snprintf(arch, sizeof arch, "-arch=native");
    char **objs = calloc((size_t)o->nsources + 1, sizeof *objs);
    if (!objs)
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    gl_status st = GL_OK;
    int nobj = 0;
    for (int i = 0; i < o->nsources && st == GL_OK; i++) {
        char obj[PATH_MAX], keep[PATH_MAX], dep[PATH_MAX];
        snprintf(obj, sizeof obj, "%s/%d.o", dir, i);
        snprintf(dep, sizeof dep, "%s/%d.d", dir, i);
        const char *argv[PROG_MAXARGS + 32];
        int n = 0;
        argv[n++] = nvcc;
        argv[n++] = "-MD"; /* the files it reads, for the build cache (program_cache.h) */
        argv[n++] = "-MF";
        argv[n++] = dep;
        if (has_suffix(o->sources[i], ".cu") && o->native) {
            argv[n++] = arch;
            argv[n++] = "-lineinfo";
        } else if (has_suffix(o->sources[i], ".cu")) {
            /* -keep: the PTX (keep/N/NAME.ptx), whose registers ptxas counts */
            const char *cu[] = {"-gencode",  gencode, "-Xfatbin",  "--compress=false",
                                "-lineinfo", "-keep", "-keep-dir", keep};
            snprintf(keep, sizeof keep, "%s/keep%d", dir, i);
            if (mkdir(keep, 0700) != 0 && errno != EEXIST) {
                st = gl_fail(err, GL_ERR_TOOL, "cannot create %s: %s", keep, strerror(errno));
                break;
            }
            for (size_t k = 0; k < sizeof cu / sizeof cu[0]; k++)
                argv[n++] = cu[k];
        }
        if (!o->native) {
            argv[n++] = "-include";
            argv[n++] = sites;
        }
        for (int k = 0; k < o->ncflags && k < PROG_MAXARGS; k++)
            argv[n++] = o->cflags[k];
        /* the host code's line table (-g1): launch records' file:line */
        const char *rest[] = {"-O2", "-Xcompiler", "-g1", "-c", "-o", obj, o->sources[i], NULL};
        for (size_t k = 0; k < sizeof rest / sizeof rest[0]; k++)
            argv[n++] = rest[k];
        if ((st = compile(argv, dir, o->sources[i], "nvcc", o->verbose, err)) != GL_OK)
            break;
        objs[nobj++] = strdup(obj);
        if (!o->native && has_suffix(o->sources[i], ".cu")) {
            const char *base = strrchr(o->sources[i], '/');
            base = base ? base + 1 : o->sources[i];
            char ptx[2 * PATH_MAX];
            snprintf(ptx, sizeof ptx, "%s/%.*s.ptx", keep, (int)(strlen(base) - 3), base);
            count_regs(ptx, sm, dir, i, o->verbose);
        }
    }
    if (st == GL_OK)
        st = link_program(nvcc, o->native ? NULL : "-cudart=none", objs, nobj,
                          o->native ? NULL : lib, dir, exe, exelen, o->verbose, err);
    for (int i = 0; i < nobj; i++)
        free(objs[i]);
    free(objs);
    return st;
}

/* gl_program_build without the cache. */
static gl_status build(const gl_program_opts *o, const char *dir, char *exe, size_t exelen,
                       gl_error *err)
{
    char clang[PATH_MAX], prelude[PATH_MAX], preinc[PATH_MAX + 16], lib[PATH_MAX], inc[PATH_MAX],
        rt[PATH_MAX + 16];
    if (!find_file("GPULEARN_CUDART_LIB", GL_CUDART_LIB, "libgpulearn_cudart.a", lib, sizeof lib))
        return gl_fail(err, GL_ERR_TOOL,
                       "gpulearn's CUDA runtime (libgpulearn_cudart.a) is not found: build it "
                       "with make, or set GPULEARN_CUDART_LIB");
    int sm = o->arch ? gl_arch_sm(o->arch) : 90;
    if (o->native) {
        char nvcc[PATH_MAX];
        if (o->compiler == GL_CC_CLANG)
            return gl_fail(err, GL_ERR_USAGE, "--backend gpu compiles with nvcc, not clang");
        if (!gl_compile_find_nvcc(nvcc, sizeof nvcc))
            return gl_fail(err, GL_ERR_TOOL, "--backend gpu needs nvcc (the CUDA Toolkit)");
        return build_nvcc(o, nvcc, o->arch ? sm : 0, NULL, NULL, dir, exe, exelen, err);
    }
    const int have_clang = gl_compile_find_clang(clang, sizeof clang);
    if (o->compiler == GL_CC_NVCC || (o->compiler == GL_CC_AUTO && !have_clang)) {
        char nvcc[PATH_MAX];
        if (!gl_compile_find_nvcc(nvcc, sizeof nvcc))
            return gl_fail(err, GL_ERR_TOOL,
                           "compiling a whole program needs clang or nvcc; %s is not found",
                           o->compiler == GL_CC_NVCC ? "nvcc" : "neither");
        if (!find_file("GPULEARN_CUDART_INCLUDE", GL_CUDART_INCLUDE, "include", inc, sizeof inc))
            return gl_fail(err, GL_ERR_TOOL,
                           "gpulearn's CUDA runtime's include folder is not found: set "
                           "GPULEARN_CUDART_INCLUDE");
        char sites[PATH_MAX + 32];
        snprintf(sites, sizeof sites, "%s/gpulearn_nvcc_sites.h", inc);
        return build_nvcc(o, nvcc, sm ? sm : 90, lib, sites, dir, exe, exelen, err);
    }
    if (!have_clang)
        return gl_fail(err, GL_ERR_TOOL,
                       "compiling a whole program needs clang (clang, clang-14 ... clang-19 on "
                       "PATH)");
    if (!gl_compile_find_prelude(prelude, sizeof prelude))
        return gl_fail(err, GL_ERR_TOOL,
                       "the prelude gpulearn_prelude.h is not found (set "
                       "GPULEARN_PRELUDE_DIR)");
    gl_compile_prelude_dir(prelude, preinc, sizeof preinc);
    if (!find_file("GPULEARN_CUDART_LIB", GL_CUDART_LIB, "libgpulearn_cudart.a", lib, sizeof lib) ||
        !find_file("GPULEARN_CUDART_INCLUDE", GL_CUDART_INCLUDE, "include", inc, sizeof inc))
        return gl_fail(err, GL_ERR_TOOL,
                       "gpulearn's CUDA runtime (libgpulearn_cudart.a and its include folder) "
                       "is not found: build it with make, or set GPULEARN_CUDART_LIB and "
                       "GPULEARN_CUDART_INCLUDE");
    /* nvcc includes cuda_runtime.h in every .cu; so does gpulearn */
    snprintf(rt, sizeof rt, "%s/cuda_runtime.h", inc);
    if (!sm)
        sm = 90;
    const int regs_sm = sm; /* registers are counted for the device modelled */
    if (sm > PROG_CLANG_MAX_SM)
        sm = sm >= 90 ? 80 : PROG_CLANG_MAX_SM; /* PTX of an older target runs on newer */
    char arch[64];
    snprintf(arch, sizeof arch, "--cuda-gpu-arch=sm_%d", sm);

    char **objs = calloc((size_t)o->nsources + 8, sizeof *objs);
    if (!objs)
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    gl_status st = GL_OK;
    int nobj = 0;
    for (int i = 0; i < o->nsources && st == GL_OK; i++) {
        const char *src = o->sources[i];
        const int cu = has_suffix(src, ".cu");
        char ptx[PATH_MAX], gpubin[PATH_MAX], obj[PATH_MAX], dep[PATH_MAX], devdep[PATH_MAX];
        snprintf(ptx, sizeof ptx, "%s/%d.ptx", dir, i);
        snprintf(dep, sizeof dep, "%s/%d.d", dir, i); /* the files read: the build cache */
        snprintf(devdep, sizeof devdep, "%s/%d.dev.d", dir, i);
        snprintf(gpubin, sizeof gpubin, "%s/%d.gpubin", dir, i);
        snprintf(obj, sizeof obj, "%s/%d.o", dir, i);
        const char *argv[PROG_MAXARGS + 32];
        int n = 0;
        argv[n++] = clang;
        /* C++ (what clang++ is), but for .c files */
        if (cu || !has_suffix(src, ".c"))
            argv[n++] = "--driver-mode=g++";
        if (cu) {
            const char *common[] = {"-x",
                                    "cuda",
                                    "-nocudainc",
                                    "-nocudalib",
                                    arch,
                                    "-Wno-unknown-cuda-version",
                                    "-fno-color-diagnostics",
                                    "-include",
                                    prelude,
                                    "-include",
                                    rt,
                                    "-isystem",
                                    inc,
                                    "-isystem",
                                    preinc};
            for (size_t k = 0; k < sizeof common / sizeof common[0]; k++)
                argv[n++] = common[k];
        } else {
            /* a host-only file: cuda_runtime.h, and the vector types it takes from the
             * prelude's folder (searched last: the C library's assert.h comes first) */
            argv[n++] = "-isystem";
            argv[n++] = inc;
            argv[n++] = "-idirafter";
            argv[n++] = preinc;
        }
        for (int k = 0; k < o->ncflags && k < PROG_MAXARGS; k++)
            argv[n++] = o->cflags[k];
        const int base = n;
        if (cu) {
            /* the device side: PTX with line info; a null dereference stays an access */
            const char *dev[] = {"--cuda-device-only",
                                 "-MD",
                                 "-MF",
                                 devdep,
                                 "-S",
                                 "-O2",
                                 "-gline-tables-only",
                                 "-fno-delete-null-pointer-checks",
                                 "-o",
                                 ptx,
                                 src,
                                 NULL};
            for (size_t k = 0; k < sizeof dev / sizeof dev[0]; k++)
                argv[n++] = dev[k];
            if ((st = compile(argv, dir, src, "clang, device code", o->verbose, err)) != GL_OK)
                break;
            if (write_gpubin(ptx, gpubin, err) != 0) {
                st = err ? err->status : GL_ERR_TOOL;
                break;
            }
            count_regs(ptx, regs_sm, dir, i, o->verbose);
            n = base;
            /* the host side: the new launch API (__cudaPushCallConfiguration and
             * cudaLaunchKernel, CUDA 9.2 on), the PTX in the GPU binary's place */
            const char *host[] = {"--cuda-host-only",
                                  "-MD",
                                  "-MF",
                                  dep,
                                  "-O2",
                                  "-gline-tables-only", /* launch records' file:line */
                                  "-Xclang",
                                  "-target-sdk-version=11.5",
                                  "-Xclang",
                                  "-fcuda-include-gpubinary",
                                  "-Xclang",
                                  gpubin,
                                  "-c",
                                  "-o",
                                  obj,
                                  src,
                                  NULL};
            for (size_t k = 0; k < sizeof host / sizeof host[0]; k++)
                argv[n++] = host[k];
        } else {
            const char *host[] = {"-MD", "-MF", dep, "-O2", "-gline-tables-only",
                                  "-c",  "-o",  obj, src,   NULL};
            for (size_t k = 0; k < sizeof host / sizeof host[0]; k++)
                argv[n++] = host[k];
        }
        if ((st = compile(argv, dir, src, "clang, host code", o->verbose, err)) != GL_OK)
            break;
        objs[nobj++] = strdup(obj);
    }
    if (st == GL_OK)
        st = link_program(clang, "--driver-mode=g++", objs, nobj, lib, dir, exe, exelen, o->verbose,
                          err);
    for (int i = 0; i < nobj; i++)
        free(objs[i]);
    free(objs);
    return st;
}

gl_status gl_program_build(const gl_program_opts *o, const char *dir, char *exe, size_t exelen,
                           gl_error *err)
{
    char lib[PATH_MAX], inc[PATH_MAX], key[65];
    const int cached =
        find_file("GPULEARN_CUDART_LIB", GL_CUDART_LIB, "libgpulearn_cudart.a", lib, sizeof lib) &&
        find_file("GPULEARN_CUDART_INCLUDE", GL_CUDART_INCLUDE, "include", inc, sizeof inc) &&
        gl_program_cache_key(o, lib, inc, GL_CUDART_SANLIB, key) == 0;
    if (cached && gl_program_cache_get(key, dir, exe, exelen, o->verbose))
        return GL_OK;
    const gl_status st = build(o, dir, exe, exelen, err);
    if (st == GL_OK && cached)
        gl_program_cache_put(key, dir, o->verbose);
    return st;
}

static volatile sig_atomic_t prog_alarm;
static void on_alarm(int sig)
{
    (void)sig;
    prog_alarm = 1;
}

int gl_program_run(const char *exe, char *const argv[], const char *arch, const char *schedule,
                   double timeout_s, gl_error *err)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        gl_fail(err, GL_ERR_TOOL, "cannot start the program: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        if (arch)
            setenv("GPULEARN_PROG_ARCH", arch, 1);
        if (schedule)
            setenv("GPULEARN_PROG_SCHEDULE", schedule, 1);
        setenv("GPULEARN_PROG_NAME", argv[0], 1);
        char regs[PATH_MAX + 8]; /* the build's register table (count_regs), if any */
        const char *slash = strrchr(exe, '/');
        snprintf(regs, sizeof regs, "%.*s/regs", slash ? (int)(slash - exe) : 1, slash ? exe : ".");
        if (access(regs, R_OK) == 0)
            setenv("GPULEARN_PROG_REGS", regs, 1);
        if (GL_CUDART_SANLIB[0]) /* a sanitizer build: the program's own leaks are not ours */
            setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
        execv(exe, argv);
        _exit(127);
    }
    setpgid(pid, pid);
    /* the terminal's Ctrl-C reaches the program (its own process group) through us */
    struct sigaction sa, old_int, old_alrm;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, &old_alrm);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGINT, &sa, &old_int);
    if (timeout_s > 0)
        alarm((unsigned)(timeout_s + 0.999));
    int status = 0, timed_out = 0;
    for (;;) {
        if (waitpid(pid, &status, 0) == pid)
            break;
        if (errno == EINTR && prog_alarm && !timed_out) {
            timed_out = 1;
            kill(-pid, SIGKILL);
        } else if (errno != EINTR) {
            break;
        }
    }
    alarm(0);
    sigaction(SIGALRM, &old_alrm, NULL);
    sigaction(SIGINT, &old_int, NULL);
    if (timed_out) {
        fprintf(stderr, "gpulearn: %s did not end within %g s (--timeout): stopped\n", argv[0],
                timeout_s);
        return 1;
    }
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        fprintf(stderr, "gpulearn: %s was killed by signal %d (%s)%s\n", argv[0], sig,
                strsignal(sig),
                sig == SIGSEGV ? ": a host access to a bad address; a pointer from cudaMalloc "
                                 "is device memory, which host code cannot dereference "
                                 "(copy it with cudaMemcpy, or use cudaMallocManaged)"
                               : "");
        return 128 + sig;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
