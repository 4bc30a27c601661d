/* compile_cli.c — the compilers run as programs: nvcc and clang (with our prelude for
 * the CUDA headers), their command lines, and running one under the compile limits with
 * its output in a log. */
#include "runtime/compile_internal.h"
#include "runtime/program.h"
#include "sim/sim.h"

#include "runtime/arch.h"
#include "runtime/cubin.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef GL_PRELUDE_DIR
#define GL_PRELUDE_DIR "runtime/prelude"
#endif

/* ------------------------------------------------------------------ running tools */

/* Searches PATH for an executable called `name`; fills buf. Returns 1 if found. */
static int find_on_path(const char *name, char *buf, size_t n)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        int w = len ? snprintf(buf, n, "%.*s/%s", (int)len, path, name)
                    : snprintf(buf, n, "./%s", name);
        if (w > 0 && (size_t)w < n && access(buf, X_OK) == 0) {
            struct stat st;
            if (stat(buf, &st) == 0 && S_ISREG(st.st_mode))
                return 1;
        }
        path += len + (colon ? 1 : 0);
    }
    return 0;
}

/* The limits of every compiler process (compile.h): CPU time and, outside
 * AddressSanitizer builds (whose shadow memory is one huge mapping), data memory. A
 * gl_child_opts setup hook (the child's own process group, killed with it, and SIGKILL
 * when its parent dies are gl_child's); ctx unused. */
void cc_compile_limits(void *ctx)
{
    (void)ctx;
    const struct rlimit cpu = {GL_COMPILE_CPU_S, GL_COMPILE_CPU_S};
    setrlimit(RLIMIT_CPU, &cpu);
#ifndef __SANITIZE_ADDRESS__
    const struct rlimit data = {GL_COMPILE_DATA_BYTES, GL_COMPILE_DATA_BYTES};
    setrlimit(RLIMIT_DATA, &data);
#endif
}

/* tool_run's setup hook: cc_compile_limits, stdin from /dev/null, stdout and stderr into
 * the log (ctx: its int fd). */
static void tool_setup(void *ctx)
{
    cc_compile_limits(NULL);
    const int log = *(const int *)ctx;
    const int in = open("/dev/null", O_RDONLY);
    if (in < 0 || dup2(in, 0) < 0 || dup2(log, 1) < 0 || dup2(log, 2) < 0)
        _exit(127);
}

/* Runs argv (argv[0] a path, no shell) with stdin from /dev/null and stdout+stderr into
 * logpath, under cc_compile_limits; past GL_COMPILE_WALL_S seconds its process group is
 * killed. Returns the exit status, or -1 when it could not start, died of a signal or
 * ran too long (why says which). */
static int tool_run(char *const argv[], const char *logpath, char *why, size_t whylen)
{
    int log = open(logpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (log < 0) {
        snprintf(why, whylen, "%.900s: %s", logpath, strerror(errno));
        return -1;
    }
    const gl_child_opts o = {.setup = tool_setup, .setup_ctx = &log};
    gl_child ch;
    const int started = gl_child_exec(&ch, &o, argv), e = errno;
    close(log);
    if (started != 0) {
        snprintf(why, whylen, "%s: fork: %s", argv[0], strerror(e));
        return -1;
    }
    gl_child_exit ex;
    const int w = gl_child_wait(&ch, gl_child_now() + GL_COMPILE_WALL_S, &ex);
    if (w < 0) {
        snprintf(why, whylen, "%s: waitpid: %s", argv[0], strerror(errno));
        return -1;
    }
    if (w == 0) {
        gl_child_stop(&ch, GL_CHILD_FOREVER, NULL);
        snprintf(why, whylen,
                 "%s: still compiling after %d s: stopped (a macro or "
                 "template that expands without end?)",
                 argv[0], GL_COMPILE_WALL_S);
        return -1;
    }
    if (ex.exited) {
        if (ex.code == 127)
            snprintf(why, whylen, "%s: could not be started (exit status 127)", argv[0]);
        return ex.code;
    }
    snprintf(why, whylen, "%s: killed by signal %d%s", argv[0], ex.signal,
             ex.signal == SIGXCPU
                 ? " (its CPU-time limit: a macro or template that expands without end?)"
                 : "");
    return -1;
}

/* Joins argv into out->command, replacing tmp (the temporary folder) with "$TMP". */
static void set_command(gl_compiled *out, char *const argv[], const char *tmp)
{
    strbuf b = {0};
    size_t tlen = tmp ? strlen(tmp) : 0;
    for (int i = 0; argv[i]; i++) {
        if (i)
            cc_sb_puts(&b, " ");
        if (tlen && strncmp(argv[i], tmp, tlen) == 0) {
            cc_sb_puts(&b, "$TMP");
            cc_sb_puts(&b, argv[i] + tlen);
        } else {
            cc_sb_puts(&b, argv[i]);
        }
    }
    snprintf(out->command, sizeof out->command, "%s", b.s ? b.s : "");
    free(b.s);
}

/* Runs an external compiler (nvcc or clang) whose argv writes PTX to ptxpath; the common
 * part of cc_try_nvcc and cc_try_clang. */
static try_result run_external(char *const argv[], const char *tmp, const char *ptxpath,
                               const char *path, const char *tool, gl_compiled *out, char *why,
                               size_t whylen, gl_error *err)
{
    char logpath[PATH_MAX];
    snprintf(logpath, sizeof logpath, "%s/log.txt", tmp);
    set_command(out, argv, tmp);
    int rc = tool_run(argv, logpath, why, whylen);
    if (rc < 0 || rc == 127)
        return TRY_UNAVAILABLE;
    gl_error ignored;
    char *log = gl_read_file(logpath, NULL, &ignored);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (rc != 0 && (!log || !strstr(log, base))) {
        /* Not a word about the learner's file: the tool itself failed (nvcc without a
         * host compiler: "nvcc fatal : Failed to preprocess host compiler properties"). */
        size_t n = log ? strcspn(log, "\n") : 0;
        snprintf(why, whylen, "%s failed (exit status %d)%s%.*s", tool, rc, n ? ": " : "",
                 (int)(n < 400 ? n : 400), log ? log : "");
        free(log);
        return TRY_UNAVAILABLE;
    }
    if (rc != 0) {
        cc_compile_failed(log, path, tool, out, err);
        free(log);
        return TRY_COMPILE_ERROR;
    }
    char *ptx = gl_read_file(ptxpath, NULL, &ignored);
    if (!ptx) {
        snprintf(why, whylen, "%s exited 0 but wrote no PTX", tool);
        free(log);
        return TRY_UNAVAILABLE;
    }
    cc_keep_warnings(log, path, out);
    free(log);
    out->ptx = ptx;
    return TRY_OK;
}

/* ------------------------------------------------------------------ nvcc */

/* Finds nvcc: PATH, then $CUDA_HOME/bin, then /usr/local/cuda/bin. */
int gl_compile_find_nvcc(char *buf, size_t n)
{
    if (find_on_path("nvcc", buf, n))
        return 1;
    const char *home = getenv("CUDA_HOME");
    if (home && *home && snprintf(buf, n, "%s/bin/nvcc", home) < (int)n && access(buf, X_OK) == 0)
        return 1;
    snprintf(buf, n, "/usr/local/cuda/bin/nvcc");
    return access(buf, X_OK) == 0;
}

try_result cc_try_nvcc(const char *path, const char *archnum, int debug, gl_compiled *out,
                       char *why, size_t whylen, gl_error *err)
{
    char nvcc[PATH_MAX], tmp[PATH_MAX], ptxpath[PATH_MAX + 16], arch[64];
    if (!gl_compile_find_nvcc(nvcc, sizeof nvcc)) {
        snprintf(why, whylen, "nvcc: not on PATH, in $CUDA_HOME/bin or /usr/local/cuda/bin");
        return TRY_UNAVAILABLE;
    }
    if (gl_tmpdir_make(tmp, sizeof tmp, "cc") != 0) {
        snprintf(why, whylen, "nvcc: cannot create a temporary folder: %s", strerror(errno));
        return TRY_UNAVAILABLE;
    }
    snprintf(ptxpath, sizeof ptxpath, "%s/kernel.ptx", tmp);
    snprintf(arch, sizeof arch, "-arch=compute_%s", archnum);
    /* --expt-relaxed-constexpr: constexpr host functions (std::min, std::numeric_limits)
     * in device code, as clang allows them and NVRTC's headers (prelude/nvrtc) give them */
    char *argv[] = {nvcc,
                    "-ptx",
                    arch,
                    debug ? "-G" : "-lineinfo",
                    "--expt-relaxed-constexpr",
                    "-o",
                    ptxpath,
                    "-x",
                    "cu",
                    (char *)path,
                    NULL};
    try_result r = run_external(argv, tmp, ptxpath, path, "nvcc", out, why, whylen, err);
    gl_tmpdir_remove(tmp);
    return r;
}

/* ------------------------------------------------------------------ ptxas */

/* Finds ptxas: $GPULEARN_PTXAS ("none": no ptxas), then PATH, $CUDA_HOME/bin and
 * /usr/local/cuda/bin, as gl_compile_find_nvcc looks for nvcc. */
int gl_compile_find_ptxas(char *buf, size_t n)
{
    const char *env = getenv("GPULEARN_PTXAS");
    if (env && *env) {
        if (strcmp(env, "none") == 0)
            return 0;
        return snprintf(buf, n, "%s", env) < (int)n && access(buf, X_OK) == 0;
    }
    if (find_on_path("ptxas", buf, n))
        return 1;
    const char *home = getenv("CUDA_HOME");
    if (home && *home && snprintf(buf, n, "%s/bin/ptxas", home) < (int)n && access(buf, X_OK) == 0)
        return 1;
    snprintf(buf, n, "/usr/local/cuda/bin/ptxas");
    return access(buf, X_OK) == 0;
}

void cc_count_regs(const char *ptx, const char *archnum, gl_compiled *out)
{
    free(out->regs);
    out->regs = NULL;
    char ptxas[PATH_MAX], tmp[PATH_MAX], in[PATH_MAX + 16], cubin[PATH_MAX + 16],
        logpath[PATH_MAX + 16], arch[64], why[512] = "";
    const int sm = gl_arch_sm(archnum);
    if (!gl_compile_find_ptxas(ptxas, sizeof ptxas)) {
        if (!out->regs_why[0]) /* else NVRTC's reason (compile_nvrtc.c) */
            snprintf(out->regs_why, sizeof out->regs_why, "no CUDA Toolkit (ptxas) to count them");
        return;
    }
    if (gl_tmpdir_make(tmp, sizeof tmp, "ptxas") != 0) {
        snprintf(out->regs_why, sizeof out->regs_why, "ptxas: cannot create a temporary folder: %s",
                 strerror(errno));
        return;
    }
    snprintf(in, sizeof in, "%s/kernel.ptx", tmp);
    snprintf(cubin, sizeof cubin, "%s/kernel.cubin", tmp);
    snprintf(logpath, sizeof logpath, "%s/log.txt", tmp);
    snprintf(arch, sizeof arch, "-arch=sm_%s", archnum);
    gl_error e = {0};
    char *argv[] = {ptxas, arch, "-o", cubin, in, NULL};
    int rc = gl_write_file_atomic(in, ptx, strlen(ptx), &e) == GL_OK
                 ? tool_run(argv, logpath, why, sizeof why)
                 : (snprintf(why, sizeof why, "%.400s", e.msg), -1);
    if (rc != 0) {
        char *log = rc > 0 ? gl_read_file(logpath, NULL, &e) : NULL;
        const size_t n = log ? strcspn(log, "\n") : 0;
        snprintf(out->regs_why, sizeof out->regs_why, "ptxas %s failed: %.*s", arch,
                 (int)(n ? (n < 200 ? n : 200) : strlen(why)), n ? log : why);
        free(log);
        for (char *c = out->regs_why; *c; c++) /* ptxas quotes the PTX: printable only */
            if ((unsigned char)*c < ' ' || (unsigned char)*c > '~')
                *c = '?';
    } else {
        size_t len = 0;
        char *bin = gl_read_file(cubin, &len, &e);
        out->regs = bin ? gl_cubin_regs(bin, len, sm, why, sizeof why) : NULL;
        if (!out->regs)
            snprintf(out->regs_why, sizeof out->regs_why,
                     "ptxas %s wrote a cubin gpulearn cannot read: %.120s", arch,
                     bin ? why : e.msg);
        free(bin);
    }
    gl_tmpdir_remove(tmp);
}

/* ------------------------------------------------------------------ clang */

/* Finds the prelude: $GPULEARN_PRELUDE_DIR, the source tree's runtime/prelude
 * (GL_PRELUDE_DIR), then <exe>/../share/gpulearn/prelude for installs. */
int gl_compile_find_prelude(char *buf, size_t n)
{
    const char *env = getenv("GPULEARN_PRELUDE_DIR");
    if (env && *env) {
        snprintf(buf, n, "%s/" PRELUDE_NAME, env);
        return access(buf, R_OK) == 0;
    }
    if (snprintf(buf, n, "%s/" PRELUDE_NAME, GL_PRELUDE_DIR) < (int)n && access(buf, R_OK) == 0)
        return 1;
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            if (snprintf(buf, n, "%s/../share/gpulearn/prelude/" PRELUDE_NAME, exe) < (int)n &&
                access(buf, R_OK) == 0)
                return 1;
        }
    }
    return 0;
}

/* The headers shipped beside the prelude (prelude: its path): <its folder>/include,
 * holding cooperative_groups.h and cooperative_groups/ (reduce.h, scan.h, details/). */
void gl_compile_prelude_dir(const char *prelude, char *buf, size_t n)
{
    const char *slash = strrchr(prelude, '/');
    snprintf(buf, n, "%.*s/include", slash ? (int)(slash - prelude) : 1, slash ? prelude : ".");
}

/* Finds clang: "clang" on PATH, then clang-19 down to clang-14. */
int gl_compile_find_clang(char *buf, size_t n)
{
    if (find_on_path("clang", buf, n))
        return 1;
    for (int v = 19; v >= 14; v--) {
        char name[32];
        snprintf(name, sizeof name, "clang-%d", v);
        if (find_on_path(name, buf, n))
            return 1;
    }
    return 0;
}

try_result cc_try_clang(const char *path, const char *archnum, int debug, int program,
                        gl_compiled *out, char *why, size_t whylen, gl_error *err)
{
    char clang[PATH_MAX], prelude[PATH_MAX], tmp[PATH_MAX], ptxpath[PATH_MAX + 16], arch[64],
        incdir[PATH_MAX + 16];
    if (!gl_compile_find_clang(clang, sizeof clang)) {
        snprintf(why, whylen, "clang: not on PATH (clang, clang-14 ... clang-19)");
        return TRY_UNAVAILABLE;
    }
    if (!gl_compile_find_prelude(prelude, sizeof prelude)) {
        snprintf(why, whylen,
                 "clang: %s not found (set GPULEARN_PRELUDE_DIR to the folder holding it)",
                 PRELUDE_NAME);
        return TRY_UNAVAILABLE;
    }
    if (gl_tmpdir_make(tmp, sizeof tmp, "cc") != 0) {
        snprintf(why, whylen, "clang: cannot create a temporary folder: %s", strerror(errno));
        return TRY_UNAVAILABLE;
    }
    snprintf(ptxpath, sizeof ptxpath, "%s/kernel.ptx", tmp);
    snprintf(arch, sizeof arch, "--cuda-gpu-arch=sm_%s", archnum);
    /* the prelude's include/ (cooperative_groups.h), searched before the system's */
    gl_compile_prelude_dir(prelude, incdir, sizeof incdir);
    char *argv[] = {clang, "--cuda-device-only", "-nocudainc", "-nocudalib", arch,
                    "-Wno-unknown-cuda-version", "-S", debug ? "-O0" : "-O2", "-gline-tables-only",
                    "-fno-color-diagnostics",
                    /* a null dereference stays an access (which the simulator reports),
                     * not undefined behaviour that -O2 deletes with the code around it;
                     * NVRTC and nvcc make it a trap */
                    "-fno-delete-null-pointer-checks", "-include", prelude, "-isystem", incdir,
                    "-x", "cuda", "-o", ptxpath, (char *)path, NULL, NULL, NULL, NULL, NULL};
    char rtlib[PATH_MAX], rtinc[PATH_MAX], rt[PATH_MAX + 32];
    if (program) { /* after the prelude: cudart's cuda_runtime.h and its folder */
        if (!gl_program_runtime_paths(rtlib, sizeof rtlib, rtinc, sizeof rtinc)) {
            gl_tmpdir_remove(tmp);
            snprintf(why, whylen, "clang: gpulearn's CUDA runtime's include folder not found");
            return TRY_UNAVAILABLE;
        }
        snprintf(rt, sizeof rt, "%s/cuda_runtime.h", rtinc);
        int at = 0; /* the four go in before "-x" */
        while (strcmp(argv[at], "-x") != 0)
            at++;
        memmove(&argv[at + 4], &argv[at], 5 * sizeof argv[0]);
        argv[at] = "-include", argv[at + 1] = rt, argv[at + 2] = "-isystem", argv[at + 3] = rtinc;
    }
    try_result r = run_external(argv, tmp, ptxpath, path, "clang", out, why, whylen, err);
    gl_tmpdir_remove(tmp);
    return r;
}

/* clang knows the GPU targets of its release (clang 14: up to sm_86) and stops with
 * "unsupported CUDA gpu architecture" for newer ones. PTX is forward compatible (PTX ISA
 * §12 "Release Notes"/"PTX Module Directives": code for sm_86 runs on later GPUs), so
 * clang compiles for the newest modelled target it knows below the one asked for, and
 * the log says so where the target was asked for (note = 1); a kernel that needs the
 * newer target fails to compile there, with a message naming the feature and clang's
 * limit (gl_compile_cuda). *fallback gets the target compiled for (0: none of them). */

try_result cc_try_clang_older(const char *path, const char *archnum, int debug, int program,
                              int note, gl_compiled *out, char *why, size_t whylen, gl_error *err,
                              int *fallback)
{
    const int want = gl_arch_sm(archnum);
    try_result r = TRY_COMPILE_ERROR;
    *fallback = 0;
    for (int i = sim_device_count() - 1; i >= 0; i--) {
        const sim_device_model *d = sim_device_at(i);
        const int sm = d->compute_major * 10 + d->compute_minor;
        if (sm >= want)
            continue;
        char num[16];
        snprintf(num, sizeof num, "%d", sm);
        gl_error e = {0};
        why[0] = '\0';
        r = cc_try_clang(path, num, debug, program, out, why, whylen, &e);
        if (r != TRY_OK && (strstr(e.msg, CLANG_NO_TARGET) || strstr(why, CLANG_NO_TARGET)))
            continue;
        *fallback = sm;
        if (err)
            *err = e;
        if (r == TRY_OK && note) {
            char noteline[300];
            snprintf(noteline, sizeof noteline,
                     "gpulearn: note: this clang knows GPU targets up to sm_%d: compiled for "
                     "sm_%d instead of sm_%s (its PTX runs on sm_%s too; --compiler nvrtc or "
                     "nvcc compile for sm_%s itself)\n",
                     sm, sm, archnum, archnum, archnum);
            cc_log_prepend(out, noteline);
        }
        return r;
    }
    return r;
}

/* A compile error caused by a feature the target lacks gets a first noteline that names it
 * and the first target that has it. sm: the target compiled for; want: the one asked
 * for (they differ where clang knows no newer target, see cc_try_clang_older). */
void cc_explain_target(gl_error *err, const char *path, int sm, int want, const char *origin)
{
    gl_arch_feature fv;
    if (!err || !gl_arch_feature_in(err->msg, sm, &fv))
        return;
    const gl_arch_feature *f = &fv;
    char head[512];
    if (sm < want && f->first_sm <= want)
        snprintf(head, sizeof head,
                 "%s: %s needs sm_%d or newer; this clang compiles for at most sm_%d (this run "
                 "targets sm_%d (%s)): use --compiler nvrtc or nvcc\n",
                 gl_display_path(path), f->name, f->first_sm, sm, want,
                 origin ? origin : "the default");
    else
        snprintf(head, sizeof head, "%s: %s needs sm_%d or newer; this run targets sm_%d (%s)\n",
                 gl_display_path(path), f->name, f->first_sm, sm, origin ? origin : "the default");
    char msg[sizeof err->msg];
    size_t hl = strlen(head), ml = strlen(err->msg);
    if (hl + ml >= sizeof msg)
        ml = sizeof msg - 1 - hl;
    memcpy(msg, head, hl);
    memcpy(msg + hl, err->msg, ml);
    msg[hl + ml] = '\0';
    memcpy(err->msg, msg, sizeof msg);
}

void gl_compile_find_tools(char *nvcc, char *clang, char *ptxas)
{
    if (!gl_compile_find_nvcc(nvcc, PATH_MAX))
        nvcc[0] = '\0';
    if (!gl_compile_find_clang(clang, PATH_MAX))
        clang[0] = '\0';
    if (!gl_compile_find_ptxas(ptxas, PATH_MAX))
        ptxas[0] = '\0';
}
