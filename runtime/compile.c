/* compile.c — CUDA C to PTX with whichever compiler this machine has: NVRTC (loaded with
 * dlopen, so gpulearn never links against the CUDA Toolkit, compile_nvrtc.c), then nvcc,
 * then clang's NVPTX back end with our prelude (runtime/prelude/gpulearn_prelude.h)
 * standing in for the CUDA headers (compile_cli.c). This file is the driver: it picks the
 * compiler and the target, keys and fills the PTX cache, and carries the messages of the
 * compiling children. Every compiler is asked for line info, and its diagnostics are
 * rewritten to one form, "path:line:col: error: message", with the path as the caller
 * gave it (compile_diag.c). */
#include "runtime/compile_internal.h"
#include "sim/sim.h"

#include "runtime/arch.h"
#include "runtime/sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Part of every cache key: a new gpulearn release never reuses an older one's PTX. */
#ifdef GL_VERSION
#define GL_CACHE_VERSION GL_VERSION " cache 5"
#else
#define GL_CACHE_VERSION "cache 5"
#endif

const char *gl_compiler_name(gl_compiler c)
{
    switch (c) {
    case GL_CC_AUTO: return "auto";
    case GL_CC_NVRTC: return "nvrtc";
    case GL_CC_NVCC: return "nvcc";
    case GL_CC_CLANG: return "clang";
    }
    return "?";
}

void gl_compiled_free(gl_compiled *c)
{
    if (!c)
        return;
    free(c->ptx);
    free(c->log);
    free(c->diags);
    free(c->regs);
    c->regs = NULL;
    c->ptx = NULL;
    c->log = NULL;
    c->diags = NULL;
    c->ndiags = 0;
}

/* ------------------------------------------------------------------ architecture */

/* "compute_75" / "sm_75" / "75" / "7.5" -> the number part in num (digits and an
 * optional letter suffix such as "90a"). Returns 0 when arch is not of that form. */
static int arch_number(const char *arch, char *num, size_t n)
{
    if (strchr(arch, '.')) { /* "8.0" */
        int sm = gl_arch_sm(arch);
        return sm && snprintf(num, n, "%d", sm) < (int)n;
    }
    const char *p = arch;
    if (strncmp(p, "compute_", 8) == 0)
        p += 8;
    else if (strncmp(p, "sm_", 3) == 0)
        p += 3;
    size_t len = strlen(p);
    if (len == 0 || len >= n || p[0] < '1' || p[0] > '9')
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!((p[i] >= '0' && p[i] <= '9') || (i == len - 1 && p[i] >= 'a' && p[i] <= 'z')))
            return 0;
    memcpy(num, p, len + 1);
    return 1;
}

/* ------------------------------------------------------------------ NVRTC */

/* Sends a string field (NULL: empty). 0 or -1. */
int cc_send(int fd, uint32_t type, uint32_t arg, const char *s)
{
    return gl_child_send(fd, type, arg, s, s ? strlen(s) : 0);
}

void cc_reply_free(cc_reply *r)
{
    free(r->why), free(r->msg), free(r->command), free(r->ptx), free(r->log), free(r->diags);
    free(r->regs), free(r->regs_why);
    memset(r, 0, sizeof *r);
}

/* Receives a compiling child's messages until CC_MSG_DONE, before deadline
 * (gl_child_now seconds). GL_MSG_OK with *r filled in (free with cc_reply_free in every
 * case), else why not (GL_MSG_ERROR for a message of a type it does not know). */
gl_msg_rc cc_receive(int fd, double deadline, cc_reply *r)
{
    memset(r, 0, sizeof *r);
    gl_child_msg in = {0};
    gl_msg_rc rc = GL_MSG_OK;
    int done = 0;
    while (!done && (rc = gl_child_recv(fd, &in, CC_MSG_MAX, deadline)) == GL_MSG_OK) {
        char **field = NULL;
        switch (in.h.type) {
        case CC_MSG_WHY: field = &r->why; break;
        case CC_MSG_ERROR: field = &r->msg, r->status = in.h.arg; break;
        case CC_MSG_COMMAND: field = &r->command; break;
        case CC_MSG_PTX: field = &r->ptx; break;
        case CC_MSG_LOG: field = &r->log; break;
        case CC_MSG_USED: r->used = in.h.arg; break;
        case CC_MSG_REGS:
            if (in.h.arg)
                field = &r->regs;
            break;
        case CC_MSG_REGS_WHY: field = &r->regs_why; break;
        case CC_MSG_DIAGS:
            if (in.h.len % sizeof *r->diags != 0 || in.h.len / sizeof *r->diags > INT_MAX) {
                rc = GL_MSG_ERROR;
                break;
            }
            free(r->diags);
            r->ndiags = (int)(in.h.len / sizeof *r->diags);
            r->diags = (gl_diag *)(void *)gl_child_msg_take(&in);
            for (int i = 0; r->diags && i < r->ndiags; i++) { /* NUL-terminated strings */
                r->diags[i].file[sizeof r->diags[i].file - 1] = '\0';
                r->diags[i].text[sizeof r->diags[i].text - 1] = '\0';
            }
            if (!r->diags)
                r->ndiags = 0;
            break;
        case CC_MSG_DONE: r->done = in.h.arg, done = 1; break;
        case GL_SANDBOX_MSG_ERROR: field = &r->msg, r->sandbox_error = done = 1; break;
        default: rc = GL_MSG_ERROR; break;
        }
        if (rc != GL_MSG_OK)
            break;
        if (field) {
            free(*field);
            *field = gl_child_msg_take(&in);
        }
    }
    gl_child_msg_free(&in);
    char **fields[] = {&r->why, &r->msg, &r->command, &r->ptx, &r->log, &r->regs_why};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (!*fields[i] && !(*fields[i] = strdup("")))
            rc = GL_MSG_ERROR;
    return rc;
}

/* Hashes every file under folder dir into the key: its path below dir and its bytes, in
 * name order, into subfolders up to depth levels down; dot files (editors' temporary
 * files) are left out. The prelude's folders (include/ for clang, nvrtc/ for NVRTC) are
 * hashed whole, so that a header added to them or changed invalidates cached PTX. */
void cc_key_tree(gl_cache_sha256 *h, const char *dir, const char *rel, int depth)
{
    char path[2 * PATH_MAX];
    snprintf(path, sizeof path, "%s%s%s", dir, *rel ? "/" : "", rel);
    struct dirent **ents = NULL;
    const int n = scandir(path, &ents, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        const char *name = ents[i]->d_name;
        char sub[PATH_MAX], file[3 * PATH_MAX];
        struct stat sb;
        if (name[0] == '.' ||
            (size_t)snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", name) >= sizeof sub)
            sub[0] = 0;
        snprintf(file, sizeof file, "%s/%s", dir, sub);
        if (sub[0] && stat(file, &sb) == 0) {
            if (S_ISDIR(sb.st_mode) && depth > 0) {
                cc_key_tree(h, dir, sub, depth - 1);
            } else if (S_ISREG(sb.st_mode)) {
                size_t len = 0;
                gl_error ignored;
                char *text = gl_read_file(file, &len, &ignored);
                gl_cache_sha256_field(h, sub, text ? text : "", len);
                free(text);
            }
        }
        free(ents[i]);
    }
    free(ents);
}

/* ------------------------------------------------------------------ cache key */

/* The options each compiler is run with, as cc_try_nvrtc/cc_try_nvcc/cc_try_clang pass them
 * (compute_N / sm_N stand for the architecture, which is hashed separately). Part of the
 * cache key: change this string whenever those options change. */
static const char cache_options[] =
    "nvrtc: --gpu-architecture=compute_N -lineinfo --include-path=CUDA/include | "
    "nvcc: -ptx -arch=compute_N -lineinfo --expt-relaxed-constexpr -x cu | "
    "clang: --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_N "
    "-Wno-unknown-cuda-version -S -O2 -gline-tables-only -fno-color-diagnostics "
    "-fno-delete-null-pointer-checks -include gpulearn_prelude.h -isystem PRELUDE/include -x cuda "
    "| "
    "nvrtc: --include-path=CUDA/include/cccl when there --include-path=PRELUDE/nvrtc "
    "--pre-include=math.h | "
    "debug: -G for -lineinfo (nvrtc, nvcc), -O0 for -O2 (clang) | "
    "file names rewritten to the path as given | "
    "registers: ptxas -arch=sm_N -o kernel.cubin kernel.ptx, not for debug builds";

/* Whether the source #includes a file of its own ("..."), whose bytes the key would
 * not see. */
static int has_quoted_include(const char *src)
{
    for (const char *p = src; (p = strchr(p, '#')) != NULL; p++) {
        const char *q = p + 1;
        while (*q == ' ' || *q == '\t')
            q++;
        if (strncmp(q, "include", 7) != 0)
            continue;
        q += 7;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q == '"')
            return 1;
    }
    return 0;
}

/* Computes the cache key of compiling src (the bytes of `path`) for `want` and archnum:
 * the source and its path, gpulearn's version, the options, and the name and version of
 * every compiler `want` could end up running (AUTO: each one installed, in order), with
 * the prelude's bytes when clang is among them. Returns 0, or -1 when this compilation
 * must not be cached. */
static int cache_key(const char *path, const char *src, gl_compiler want, const char *archnum,
                     int debug, int program, int sandbox, char key[65])
{
    if (has_quoted_include(src))
        return -1;
    gl_cache_sha256 h;
    gl_cache_sha256_init(&h);
    gl_cache_sha256_field(&h, "gpulearn", GL_CACHE_VERSION, strlen(GL_CACHE_VERSION));
    gl_cache_sha256_field(&h, "path", path, strlen(path));
    gl_cache_sha256_field(&h, "source", src, strlen(src));
    gl_cache_sha256_field(&h, "want", gl_compiler_name(want), strlen(gl_compiler_name(want)));
    gl_cache_sha256_field(&h, "arch", archnum, strlen(archnum));
    gl_cache_sha256_field(&h, "debug", debug ? "-G" : "", debug ? 2 : 0);
    if (program) /* a whole program's kernels: cudart's header too */
        gl_cache_sha256_field(&h, "program", "1", 1);
    if (sandbox) /* compiled in the sandbox: kept apart from the same source's own runs */
        gl_cache_sha256_field(&h, "sandbox", "1", 1);
    gl_cache_sha256_field(&h, "options", cache_options, sizeof cache_options - 1);
    char buf[PATH_MAX];
    if (!debug) /* the register count: which ptxas, or none */
        gl_cache_sha256_field(&h, "ptxas", "", 0);
    if (!debug && gl_compile_find_ptxas(buf, sizeof buf))
        gl_cache_sha256_file_id(&h, "ptxas", buf);
    if (want == GL_CC_AUTO || want == GL_CC_NVRTC)
        cc_nvrtc_key(&h);
    if ((want == GL_CC_AUTO || want == GL_CC_NVCC) && gl_compile_find_nvcc(buf, sizeof buf))
        gl_cache_sha256_file_id(&h, "nvcc", buf);
    if (want == GL_CC_AUTO || want == GL_CC_CLANG) {
        if (gl_compile_find_clang(buf, sizeof buf))
            gl_cache_sha256_file_id(&h, "clang", buf);
        gl_error ignored;
        size_t n = 0;
        char *prelude =
            gl_compile_find_prelude(buf, sizeof buf) ? gl_read_file(buf, &n, &ignored) : NULL;
        gl_cache_sha256_field(&h, "prelude", prelude ? prelude : "", n);
        free(prelude);
        char inc[PATH_MAX + 16];
        gl_compile_prelude_dir(buf, inc, sizeof inc);
        cc_key_tree(&h, inc, "", 8);
    }
    gl_cache_sha256_hex(&h, key);
    return 0;
}

/* Fills out from a cache hit. Returns 1 on a hit. */
static int cache_lookup(const char *key, gl_compiled *out, char *evicted, size_t n)
{
    gl_cache_entry e;
    if (!gl_cache_get(key, &e)) {
        snprintf(evicted, n, "%s", e.evicted);
        return 0;
    }
    static const gl_compiler all[] = {GL_CC_NVRTC, GL_CC_NVCC, GL_CC_CLANG};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(e.compiler, gl_compiler_name(all[i])) == 0) {
            out->used = all[i];
            out->ptx = e.ptx;
            out->log = e.log;
            out->regs = e.regs;
            snprintf(out->regs_why, sizeof out->regs_why, "%s", e.regs_why);
            snprintf(out->command, sizeof out->command, "%s", e.command);
            out->cached = 1;
            return 1;
        }
    gl_cache_entry_free(&e);
    return 0;
}

/* ------------------------------------------------------------------ entry point */

/* The compiler opts asks for (GPULEARN_COMPILER for AUTO) into *want and its target's
 * number ("90") into archnum: GL_OK, or GL_ERR_USAGE naming what is wrong. */
static gl_status resolve_target(const gl_compile_opts *opts, gl_compiler *want, char archnum[16],
                                gl_error *err)
{
    *want = opts->compiler;
    if ((int)*want < GL_CC_AUTO || *want > GL_CC_CLANG)
        return gl_fail(err, GL_ERR_USAGE, "unknown compiler %d", (int)*want);
    const char *env = getenv("GPULEARN_COMPILER");
    if (*want == GL_CC_AUTO && env && *env && strcmp(env, "auto") != 0) {
        if (strcmp(env, "nvrtc") == 0)
            *want = GL_CC_NVRTC;
        else if (strcmp(env, "nvcc") == 0)
            *want = GL_CC_NVCC;
        else if (strcmp(env, "clang") == 0)
            *want = GL_CC_CLANG;
        else
            return gl_fail(err, GL_ERR_USAGE,
                           "GPULEARN_COMPILER=%s: unknown compiler (nvrtc, nvcc, clang or "
                           "auto)",
                           env);
    }
    /* default: the simulator's default device profile (sim_device) */
    char defarch[32];
    snprintf(defarch, sizeof defarch, "%s", sim_device()->name);
    const char *arch = opts->arch && *opts->arch ? opts->arch : defarch;
    if (!arch_number(arch, archnum, 16))
        return gl_fail(err, GL_ERR_USAGE,
                       "%s: not a GPU architecture (expected e.g. sm_75, compute_75, 75 or 7.5)",
                       arch);
    return GL_OK;
}

struct gl_compile_job {
    cc_sandbox_job sb; /* the sandboxed child, while sb.started */
    gl_status st;      /* the result, once there is one (sb not started) */
    gl_compiled out;
    gl_error err;
    char *src;     /* the source's bytes, read once (NULL: the caller's opts->source) */
    int cacheable; /* key names the result in the cache */
    char key[65];
};

gl_compile_job *gl_compile_start(const char *path, const gl_compile_opts *opts)
{
    gl_compile_job *job = calloc(1, sizeof *job);
    if (!job)
        return NULL;
    const gl_compile_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    if (!opts->sandbox) {
        job->st = gl_compile_cuda(path, opts, &job->out, &job->err);
        return job;
    }
    gl_compile_opts o = *opts;
    gl_compiler want;
    char archnum[16];
    if ((job->st = resolve_target(opts, &want, archnum, &job->err)) != GL_OK)
        return job;
    /* the bytes, read once: the cache key's and the sandbox's */
    if (!o.source) {
        size_t len = 0;
        if (!(job->src = gl_read_submission(path, &len, &job->err))) {
            job->st = job->err.status ? job->err.status : GL_ERR_INPUT;
            return job;
        }
        o.source = job->src;
        o.source_len = len;
    }
    job->cacheable = !o.no_cache &&
                     cache_key(path, o.source, want, archnum, o.debug, o.program, 1, job->key) == 0;
    char evicted[4200];
    if (job->cacheable && cache_lookup(job->key, &job->out, evicted, sizeof evicted)) {
        job->st = GL_OK;
        return job;
    }
    job->st = cc_sandbox_start(path, &o, &job->sb, &job->err);
    return job;
}

gl_status gl_compile_finish(gl_compile_job *job, gl_compiled *out, gl_error *err)
{
    if (job->sb.started) {
        job->st = cc_sandbox_finish(&job->sb, &job->out, &job->err);
        if (job->st == GL_OK && job->cacheable) {
            gl_cache_entry e = {.ptx = job->out.ptx, .log = job->out.log, .regs = job->out.regs};
            snprintf(e.regs_why, sizeof e.regs_why, "%s", job->out.regs_why);
            snprintf(e.compiler, sizeof e.compiler, "%s", gl_compiler_name(job->out.used));
            snprintf(e.command, sizeof e.command, "%s", job->out.command);
            gl_error ignored = {0};
            gl_cache_put(job->key, &e, &ignored); /* not cached: compiled next time */
        }
    }
    const gl_status st = job->st;
    *out = job->out;
    if (st != GL_OK && err)
        *err = job->err;
    free(job->src);
    free(job);
    return st;
}

/* See compile.h. AUTO tries NVRTC, nvcc, clang in that order and stops at the first that
 * runs (a compile error from NVRTC is reported, not retried with nvcc). On failure *out
 * owns no memory; out->used and out->command say what ran. */
gl_status gl_compile_cuda(const char *path, const gl_compile_opts *opts, gl_compiled *out,
                          gl_error *err)
{
    gl_compile_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    memset(out, 0, sizeof *out);
    if (opts->sandbox) {
        gl_compile_job *job = gl_compile_start(path, opts);
        return job ? gl_compile_finish(job, out, err) : gl_fail(err, GL_ERR_NOMEM, "out of memory");
    }

    gl_compiler want;
    char archnum[16];
    gl_status ts = resolve_target(opts, &want, archnum, err);
    if (ts != GL_OK)
        return ts;

    char *src = opts->source ? malloc(opts->source_len + 1) : gl_read_file(path, NULL, err);
    if (!src)
        return opts->source ? gl_fail(err, GL_ERR_NOMEM, "out of memory") : GL_ERR_INPUT;
    if (opts->source) {
        memcpy(src, opts->source, opts->source_len);
        src[opts->source_len] = '\0';
    }

    char key[65];
    int cacheable = !opts->no_cache &&
                    cache_key(path, src, want, archnum, opts->debug, opts->program, 0, key) == 0;
    char evicted[4200] = "";
    if (cacheable && cache_lookup(key, out, evicted, sizeof evicted)) {
        free(src);
        if (opts->verbose)
            fprintf(stderr, "gpulearn: %s: %s (cached)\n", gl_compiler_name(out->used),
                    out->command);
        return GL_OK;
    }

    /* nvcc and clang read a file: with the bytes given, a copy of them in a private
     * folder, under the source's own base name (the learner's path is never opened) */
    char copydir[PATH_MAX] = "", copy[PATH_MAX + 64] = "";
    const char *cpath = path;
    if (opts->source && want != GL_CC_NVRTC) {
        const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        int fd = -1;
        if (gl_tmpdir_make(copydir, sizeof copydir, "cc") == 0 &&
            snprintf(copy, sizeof copy, "%s/%s", copydir, *base ? base : "kernel.cu") <
                (int)sizeof copy)
            fd = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        const int ok = fd >= 0 && gl_write_all(fd, opts->source, opts->source_len) == 0;
        const int e = errno;
        if (fd >= 0 && close(fd) != 0)
            fd = -1;
        if (!ok || fd < 0) {
            if (copydir[0])
                gl_tmpdir_remove(copydir);
            free(src);
            return gl_fail(err, GL_ERR_TOOL, "cannot write a copy of %s to compile: %s", path,
                           strerror(e));
        }
        cpath = copy;
    }
    static const gl_compiler order[] = {GL_CC_NVRTC, GL_CC_NVCC, GL_CC_CLANG};
    strbuf whys = {0};
    try_result r = TRY_UNAVAILABLE;
    int compiled_sm = gl_arch_sm(archnum); /* the target compiled for (cc_try_clang_older) */
    for (size_t i = 0; i < sizeof order / sizeof order[0] && r == TRY_UNAVAILABLE; i++) {
        gl_compiler c = order[i];
        if ((want != GL_CC_AUTO && want != c) || (opts->program && c == GL_CC_NVRTC))
            continue; /* NVRTC compiles no host code */
        char why[1024] = "";
        gl_error cerr = {0};
        out->used = c;
        if (c == GL_CC_NVRTC)
            r = cc_try_nvrtc(path, archnum, opts->debug, src, out, why, sizeof why, &cerr);
        else if (c == GL_CC_NVCC)
            r = cc_try_nvcc(cpath, archnum, opts->debug, out, why, sizeof why, &cerr);
        else {
            r = cc_try_clang(cpath, archnum, opts->debug, opts->program, out, why, sizeof why,
                             &cerr);
            if (r != TRY_OK &&
                (strstr(cerr.msg, CLANG_NO_TARGET) || strstr(why, CLANG_NO_TARGET))) {
                int older = 0;
                const int asked = opts->arch && *opts->arch;
                try_result o = cc_try_clang_older(cpath, archnum, opts->debug, opts->program, asked,
                                                  out, why, sizeof why, &cerr, &older);
                if (older)
                    r = o, compiled_sm = older;
            }
        }
        if (opts->verbose && r != TRY_UNAVAILABLE)
            fprintf(stderr, "gpulearn: %s: %s\n", gl_compiler_name(c), out->command);
        if (r == TRY_COMPILE_ERROR && err) {
            *err = cerr;
            cc_explain_target(err, cpath, compiled_sm, gl_arch_sm(archnum), opts->arch_origin);
            cc_explain_library(err, cpath, c == GL_CC_CLANG);
        }
        if (r == TRY_UNAVAILABLE) {
            if (opts->verbose)
                fprintf(stderr, "gpulearn: %s\n", why);
            cc_sb_printf(&whys, "\n  %s", why);
            out->command[0] = '\0';
            gl_compiled_free(out);
        }
    }
    free(src);
    if (cpath != path) { /* messages and line info name the source, not its copy */
        gl_error ignored = {0};
        cc_rename_source(cpath, path, out, err ? err : &ignored);
        gl_tmpdir_remove(copydir);
    }

    if (r == TRY_UNAVAILABLE) {
        out->used = want;
        if (want == GL_CC_AUTO)
            gl_fail(err, GL_ERR_TOOL,
                    "no CUDA compiler found: install clang (`apt-get install clang`) or the "
                    "CUDA Toolkit (nvcc and NVRTC; set CUDA_HOME if it is not in "
                    "/usr/local/cuda)%s",
                    whys.s ? whys.s : "");
        else
            gl_fail(err, GL_ERR_TOOL, "%s is not available:%s\n  install %s",
                    gl_compiler_name(want), whys.s ? whys.s : "",
                    want == GL_CC_CLANG ? "clang (`apt-get install clang`)"
                    : want == GL_CC_NVCC
                        ? "the CUDA Toolkit (set CUDA_HOME if it is not in /usr/local/cuda) "
                          "and a host C++ compiler for nvcc (`apt-get install g++`)"
                        : "the CUDA Toolkit (set CUDA_HOME if it is not in /usr/local/cuda)");
        free(whys.s);
        return GL_ERR_TOOL;
    }
    free(whys.s);
    if (r == TRY_COMPILE_ERROR) {
        /* the PTX and log go; command, used and the diagnostics stay */
        gl_diag *diags = out->diags;
        const int ndiags = out->ndiags;
        out->diags = NULL;
        gl_compiled_free(out);
        out->diags = diags;
        out->ndiags = ndiags;
        return GL_ERR_COMPILE;
    }

    char *fixed = cc_ptx_fix_file_names(out->ptx, path, path);
    char *located = fixed ? cc_ptx_fix_locs(fixed, path) : NULL;
    free(fixed);
    if (!located) {
        gl_compiled_free(out);
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    }
    free(out->ptx);
    out->ptx = located;
    if (opts->debug)
        snprintf(out->regs_why, sizeof out->regs_why, "not counted for a debug build");
    else if (!out->regs) /* NVRTC counted them where there is no ptxas */
        cc_count_regs(out->ptx, archnum, out);
    if (cacheable) {
        gl_cache_entry e = {.ptx = out->ptx, .log = out->log, .regs = out->regs};
        snprintf(e.regs_why, sizeof e.regs_why, "%s", out->regs_why);
        snprintf(e.compiler, sizeof e.compiler, "%s", gl_compiler_name(out->used));
        snprintf(e.command, sizeof e.command, "%s", out->command);
        gl_error cerr = {0};
        if (gl_cache_put(key, &e, &cerr) != GL_OK && opts->verbose)
            fprintf(stderr, "gpulearn: not cached: %s\n", cerr.msg);
    }
    if (evicted[0]) { /* with the compiler's warnings (not cached with them) */
        char note[4400];
        snprintf(note, sizeof note,
                 "gpulearn: warning: the compilation cache entry %s was damaged: removed it "
                 "and compiled again\n",
                 evicted);
        cc_log_prepend(out, note);
    }
    return GL_OK;
}
