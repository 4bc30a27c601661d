/* cub.c — CUB beside a kernel (cub.h): the library built from
 * runtime/prelude/reference/cub_ref.cu with nvcc and cached, and its timed run in the GPU
 * worker through dlopen. */
#define _GNU_SOURCE
#include "runtime/cub.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/cache.h"
#include "runtime/child.h"
#include "runtime/compile.h"
#include "runtime/worker.h"

/* nvcc's time limit for the library (CUB's headers take tens of seconds). */
#define CUB_BUILD_TIMEOUT_S 300.0

/* The reference source beside the prelude, read into a malloc'd string. */
static char *read_source(char *path, size_t len)
{
    char prelude[PATH_MAX];
    if (!gl_compile_find_prelude(prelude, sizeof prelude))
        return NULL;
    char *slash = strrchr(prelude, '/');
    *slash = '\0';
    if (snprintf(path, len, "%s/reference/cub_ref.cu", prelude) >= (int)len)
        return NULL;
    gl_error err = {0};
    return gl_read_file(path, NULL, &err);
}

/* In nvcc's child: its output into the log file (ctx: the fd). */
static void to_log(void *ctx)
{
    int fd = *(int *)ctx;
    if (dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
        _exit(127);
}

/* src into out[len], cut to fit. */
static void copy_cut(char *out, size_t len, const char *src)
{
    size_t n = strlen(src);
    if (n >= len)
        n = len - 1;
    memcpy(out, src, n);
    out[n] = '\0';
}

/* The first line of the log that says "error", or its first line. */
static void log_excerpt(const char *log_path, char *out, size_t len)
{
    FILE *f = fopen(log_path, "r");
    char line[512], first[512] = "";
    out[0] = '\0';
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!first[0])
            copy_cut(first, sizeof first, line);
        if (strstr(line, "error")) {
            copy_cut(out, len, line);
            break;
        }
    }
    if (f)
        fclose(f);
    if (!out[0])
        copy_cut(out, len, first[0] ? first : "no output");
}

int gl_cub_prepare(int sm, char *path, size_t len, char *why, size_t whylen)
{
    char nvcc[PATH_MAX], src_path[PATH_MAX], dir[PATH_MAX];
    if (!gl_compile_find_nvcc(nvcc, sizeof nvcc)) {
        snprintf(why, whylen,
                 "CUB skipped: it is built with nvcc, which is not on PATH, in $CUDA_HOME/bin "
                 "or /usr/local/cuda/bin (install the CUDA Toolkit)");
        return 0;
    }
    char *src = read_source(src_path, sizeof src_path);
    if (!src) {
        snprintf(why, whylen, "CUB skipped: cannot read %s", src_path);
        return 0;
    }
    gl_cache_sha256 h;
    char key[65], smtext[16];
    gl_cache_sha256_init(&h);
    gl_cache_sha256_field(&h, "source", src, strlen(src));
    gl_cache_sha256_file_id(&h, "nvcc", nvcc);
    snprintf(smtext, sizeof smtext, "%d", sm);
    gl_cache_sha256_field(&h, "sm", smtext, strlen(smtext));
    gl_cache_sha256_hex(&h, key);
    free(src);
    if (gl_cache_dir(dir, sizeof dir) != 0)
        snprintf(dir, sizeof dir, "%s", "/tmp/gpulearn-cub");
    else
        strncat(dir, "/lib", sizeof dir - strlen(dir) - 1);
    snprintf(path, len, "%s/cub-sm%d-%.16s.so", dir, sm, key);
    if (access(path, R_OK) == 0)
        return 1;
    /* the folder: the cache's own, then lib/ in it */
    char parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%s", dir);
    char *slash = strrchr(parent, '/');
    if (slash && slash != parent) {
        *slash = '\0';
        mkdir(parent, 0700);
    }
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        snprintf(why, whylen, "CUB skipped: cannot create %s: %s", dir, strerror(errno));
        return 0;
    }
    char tmp[PATH_MAX + 32], log_path[PATH_MAX + 32], arch[32];
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    snprintf(log_path, sizeof log_path, "%s.%ld.log", path, (long)getpid());
    snprintf(arch, sizeof arch, "-arch=sm_%d", sm);
    int fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(why, whylen, "CUB skipped: cannot write %s: %s", log_path, strerror(errno));
        return 0;
    }
    char *argv[] = {nvcc, "-O3", "-std=c++17", "-shared", "-Xcompiler", "-fPIC",
                    arch, "-o",  tmp,          src_path,  NULL};
    gl_child_opts o = {.setup = to_log, .setup_ctx = &fd};
    gl_child c;
    gl_child_exit ex = {0};
    int started = gl_child_exec(&c, &o, argv) == 0, ok = 0;
    if (started) {
        if (gl_child_wait(&c, gl_child_now() + CUB_BUILD_TIMEOUT_S, &ex) == 1)
            ok = ex.exited && ex.code == 0;
        else
            gl_child_stop(&c, 5, NULL);
    }
    close(fd);
    if (!ok) {
        char line[400];
        log_excerpt(log_path, line, sizeof line);
        snprintf(why, whylen, "CUB skipped: nvcc could not build %s: %s", src_path, line);
        unlink(tmp);
        unlink(log_path);
        return 0;
    }
    unlink(log_path);
    if (rename(tmp, path) != 0) {
        snprintf(why, whylen, "CUB skipped: cannot rename %s: %s", tmp, strerror(errno));
        unlink(tmp);
        return 0;
    }
    return 1;
}

typedef int (*cub_fn)(const int *in, int *out, int n, void *tmp, size_t *tmp_bytes);

/* One call of the routine, for gpu_time_calls. */
typedef struct cub_call {
    cub_fn fn;
    uint64_t in, out, tmp;
    size_t tmp_bytes;
    int n, status;
} cub_call;

static gl_status cub_once(void *ctx, gl_error *err)
{
    cub_call *c = ctx;
    size_t bytes = c->tmp_bytes;
    c->status = c->fn((const int *)(uintptr_t)c->in, (int *)(uintptr_t)c->out, c->n,
                      (void *)(uintptr_t)c->tmp, &bytes);
    return c->status == 0 ? GL_OK
                          : gl_fail(err, GL_ERR_CUDA, "CUB returned cudaError %d", c->status);
}

void gl_cub_run(gpu_t *g, const char *so_path, gl_cub_op op, int64_t n, gl_library_run *out)
{
    memset(out, 0, sizeof *out);
    out->asked = 1;
    const char *sym =
        op == GL_CUB_REDUCE_SUM ? "gl_cub_reduce_sum_i32" : "gl_cub_exclusive_sum_i32";
    const char *what =
        op == GL_CUB_REDUCE_SUM ? "cub::DeviceReduce::Sum" : "cub::DeviceScan::ExclusiveSum";
    void *lib = dlopen(so_path, RTLD_NOW | RTLD_LOCAL);
    cub_call c = {.n = (int)n};
    if (!lib || !(c.fn = (cub_fn)(uintptr_t)dlsym(lib, sym))) {
        snprintf(out->note, sizeof out->note, "CUB skipped: %.200s", dlerror());
        return;
    }
    gl_error e = {0};
    int *ones = malloc((size_t)n * sizeof *ones);
    double times[GL_CUB_REPS];
    const size_t out_bytes = op == GL_CUB_REDUCE_SUM ? sizeof(int) : (size_t)n * sizeof(int);
    if (!ones) {
        snprintf(out->note, sizeof out->note, "CUB skipped: out of host memory");
        return;
    }
    for (int64_t i = 0; i < n; i++)
        ones[i] = 1;
    if (gpu_malloc(g, (size_t)n * sizeof(int), &c.in, &e) != GL_OK ||
        gpu_malloc(g, out_bytes, &c.out, &e) != GL_OK ||
        gpu_htod(g, c.in, ones, (size_t)n * sizeof(int), &e) != GL_OK ||
        (c.status = c.fn(NULL, NULL, c.n, NULL, &c.tmp_bytes)) != 0 ||
        gpu_malloc(g, c.tmp_bytes ? c.tmp_bytes : 1, &c.tmp, &e) != GL_OK) {
        snprintf(out->note, sizeof out->note, "CUB skipped: %.200s",
                 c.status ? "CUB failed to size its temporary storage" : e.msg);
        goto done;
    }
    for (int r = 0; r < GL_CUB_WARMUP + GL_CUB_REPS; r++) {
        double ms = 0;
        if (gpu_time_calls(g, cub_once, &c, &ms, &e) != GL_OK) {
            snprintf(out->note, sizeof out->note, "CUB failed: %.200s", e.msg);
            goto done;
        }
        if (r >= GL_CUB_WARMUP)
            times[r - GL_CUB_WARMUP] = ms;
    }
    /* the result of ones: n for the sum, n - 1 as the scan's last element */
    int got = -1;
    const int want = op == GL_CUB_REDUCE_SUM ? (int)n : (int)n - 1;
    if (gpu_dtoh(g, &got, c.out + out_bytes - sizeof(int), sizeof got, &e) != GL_OK ||
        got != want) {
        snprintf(out->note, sizeof out->note, "CUB failed: %s of %lld ones gave %d, not %d", what,
                 (long long)n, got, want);
        goto done;
    }
    gl_time_stats ts;
    gl_worker_time_stats_of(times, GL_CUB_REPS, &ts);
    out->ms = ts.median_ms;
    const double bytes = (double)n * sizeof(int) * (op == GL_CUB_REDUCE_SUM ? 1 : 2);
    out->gbs = out->ms > 0 ? bytes / out->ms / 1e6 : 0;
    out->ran = out->ms > 0;
    snprintf(out->note, sizeof out->note, "CUB %s, %lld ints", what, (long long)n);
done:
    /* device buffers go with the worker's context; lib stays loaded (the CUDA runtime it
     * links may have started threads, and the worker exits soon) */
    free(ones);
}
