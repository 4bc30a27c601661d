/* cublas.c — cuBLAS SGEMM (or GemmEx with FP16 tensor-core math) beside a kernel
 * (cublas.h). libcublas's entry points are
 * resolved with dlsym into pointers of the prototypes cublas_api.h declares (cuBLAS
 * Library User Guide §2.4, "cuBLAS Level-3 Function Reference": cublas<t>gemm), written
 * out here so that gpulearn builds without the cuBLAS headers. */
#include "runtime/cublas.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/worker.h"

typedef int cublas_status; /* cublasStatus_t: 0 is CUBLAS_STATUS_SUCCESS */
typedef void *cublas_handle;
enum { CUBLAS_OP_N_ = 0 }; /* cublasOperation_t: no transpose */

typedef cublas_status (*create_fn)(cublas_handle *);
typedef cublas_status (*destroy_fn)(cublas_handle);
typedef cublas_status (*set_stream_fn)(cublas_handle, void *); /* cudaStream_t; NULL: default */
typedef cublas_status (*sgemm_fn)(cublas_handle, int transa, int transb, int m, int n, int k,
                                  const float *alpha, const float *a, int lda, const float *b,
                                  int ldb, const float *beta, float *c, int ldc);

/* cublasGemmEx (cublas_api.h): data types cudaDataType_t, compute cublasComputeType_t,
 * algo cublasGemmAlgo_t */
typedef cublas_status (*gemm_ex_fn)(cublas_handle, int transa, int transb, int m, int n, int k,
                                    const void *alpha, const void *a, int atype, int lda,
                                    const void *b, int btype, int ldb, const void *beta, void *c,
                                    int ctype, int ldc, int compute, int algo);
enum {
    CUDA_R_32F_ = 0,                   /* cudaDataType_t (library_types.h) */
    CUBLAS_COMPUTE_32F_FAST_16F_ = 74, /* cublasComputeType_t */
    CUBLAS_GEMM_DEFAULT_ = -1          /* cublasGemmAlgo_t */
};

#define CUBLAS_SYMBOLS(X)                                                                          \
    X(cublasCreate_v2, create_fn)                                                                  \
    X(cublasDestroy_v2, destroy_fn)                                                                \
    X(cublasSetStream_v2, set_stream_fn)                                                           \
    X(cublasSgemm_v2, sgemm_fn)

typedef struct cublas_lib {
#define FIELD(name, type) type p_##name;
    CUBLAS_SYMBOLS(FIELD)
#undef FIELD
} cublas_lib;

/* Resolves every symbol of lib; returns the first missing name, or NULL. */
static const char *cublas_resolve(void *lib, cublas_lib *f)
{
#define RESOLVE(name, type)                                                                        \
    if (!(f->p_##name = (type)dlsym(lib, #name)))                                                  \
        return #name;
    CUBLAS_SYMBOLS(RESOLVE)
#undef RESOLVE
    return NULL;
}

void *gl_cublas_open(char *name, size_t len)
{
    static const char *const names[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so.11",
                                        "libcublas.so"};
    const char *env = getenv("GPULEARN_LIBCUBLAS");
    const int n = env && *env ? 1 : (int)(sizeof names / sizeof *names);
    for (int i = 0; i < n; i++) {
        const char *try = env && *env ? env : names[i];
        void *lib = dlopen(try, RTLD_NOW | RTLD_LOCAL);
        if (!lib)
            continue;
        cublas_lib f;
        const char *missing = cublas_resolve(lib, &f);
        if (!missing) {
            snprintf(name, len, "%s", try);
            return lib;
        }
        snprintf(name, len, "%s has no %s", try, missing);
        dlclose(lib);
        return NULL;
    }
    if (env && *env)
        snprintf(name, len, "libcublas not found (GPULEARN_LIBCUBLAS=%s)", env);
    else
        snprintf(name, len,
                 "libcublas not found (tried libcublas.so.13, .so.12, .so.11 and .so: install "
                 "the CUDA Toolkit's cuBLAS)");
    return NULL;
}

/* One SGEMM (or GemmEx) call, for gpu_time_calls. */
typedef struct sgemm_call {
    cublas_lib *f;
    gemm_ex_fn gemm_ex; /* f16: cublasGemmEx, else NULL: cublasSgemm_v2 */
    cublas_handle h;
    int m, n, k;
    uint64_t a, b, c; /* device addresses */
    cublas_status status;
} sgemm_call;

static gl_status sgemm_once(void *ctx, gl_error *err)
{
    sgemm_call *s = ctx;
    const float one = 1.0f, zero = 0.0f;
    /* row-major C (m x n) = A B is column-major C^T = B^T A^T: B^T is n x k with leading
     * dimension n, A^T k x m with leading dimension k */
    if (s->gemm_ex)
        s->status = s->gemm_ex(s->h, CUBLAS_OP_N_, CUBLAS_OP_N_, s->n, s->m, s->k, &one,
                               (const void *)(uintptr_t)s->b, CUDA_R_32F_, s->n,
                               (const void *)(uintptr_t)s->a, CUDA_R_32F_, s->k, &zero,
                               (void *)(uintptr_t)s->c, CUDA_R_32F_, s->n,
                               CUBLAS_COMPUTE_32F_FAST_16F_, CUBLAS_GEMM_DEFAULT_);
    else
        s->status = s->f->p_cublasSgemm_v2(s->h, CUBLAS_OP_N_, CUBLAS_OP_N_, s->n, s->m, s->k, &one,
                                           (const float *)(uintptr_t)s->b, s->n,
                                           (const float *)(uintptr_t)s->a, s->k, &zero,
                                           (float *)(uintptr_t)s->c, s->n);
    return s->status == 0 ? GL_OK
                          : gl_fail(err, GL_ERR_CUDA, "%s returned status %d",
                                    s->gemm_ex ? "cublasGemmEx" : "cublasSgemm_v2", s->status);
}

/* Small integers (-2..2) so that every sum is exact in any order. */
static float input_value(int64_t i, int salt)
{
    return (float)((i * 7 + salt) % 5 - 2);
}

void gl_cublas_sgemm(gpu_t *g, const int64_t mnk[3], int f16, gl_library_run *out)
{
    memset(out, 0, sizeof *out);
    out->asked = 1;
    const int64_t m = mnk[0], n = mnk[1], k = mnk[2];
    char libname[200];
    void *lib = gl_cublas_open(libname, sizeof libname);
    if (!lib) {
        snprintf(out->note, sizeof out->note, "cuBLAS skipped: %s", libname);
        return;
    }
    cublas_lib f;
    cublas_resolve(lib, &f);
    sgemm_call s = {.f = &f, .m = (int)m, .n = (int)n, .k = (int)k};
    if (f16 && !(s.gemm_ex = (gemm_ex_fn)dlsym(lib, "cublasGemmEx"))) {
        snprintf(out->note, sizeof out->note, "cuBLAS skipped: %s has no cublasGemmEx", libname);
        return;
    }
    gl_error e = {0};
    float *ha = malloc((size_t)(m * k) * sizeof *ha), *hb = malloc((size_t)(k * n) * sizeof *hb);
    double times[GL_CUBLAS_REPS];
    cublas_status cs;
    if (!ha || !hb) {
        snprintf(out->note, sizeof out->note, "cuBLAS skipped: out of host memory");
        goto done;
    }
    for (int64_t i = 0; i < m * k; i++)
        ha[i] = input_value(i, 1);
    for (int64_t i = 0; i < k * n; i++)
        hb[i] = input_value(i, 3);
    if (gpu_malloc(g, (size_t)(m * k) * 4, &s.a, &e) != GL_OK ||
        gpu_malloc(g, (size_t)(k * n) * 4, &s.b, &e) != GL_OK ||
        gpu_malloc(g, (size_t)(m * n) * 4, &s.c, &e) != GL_OK ||
        gpu_htod(g, s.a, ha, (size_t)(m * k) * 4, &e) != GL_OK ||
        gpu_htod(g, s.b, hb, (size_t)(k * n) * 4, &e) != GL_OK) {
        snprintf(out->note, sizeof out->note, "cuBLAS skipped: %.200s", e.msg);
        goto done;
    }
    if ((cs = f.p_cublasCreate_v2(&s.h)) != 0 || (cs = f.p_cublasSetStream_v2(s.h, NULL)) != 0) {
        snprintf(out->note, sizeof out->note, "cuBLAS skipped: cublasCreate returned status %d",
                 cs);
        goto done;
    }
    for (int r = 0; r < GL_CUBLAS_WARMUP + GL_CUBLAS_REPS; r++) {
        double ms = 0;
        if (gpu_time_calls(g, sgemm_once, &s, &ms, &e) != GL_OK) {
            snprintf(out->note, sizeof out->note, "cuBLAS failed: %.200s", e.msg);
            goto done;
        }
        if (r >= GL_CUBLAS_WARMUP)
            times[r - GL_CUBLAS_WARMUP] = ms;
    }
    /* two corners of C against the host's exact sums: the layout above is right */
    const int64_t at[2][2] = {{0, 0}, {m - 1, n - 1}};
    for (int c = 0; c < 2; c++) {
        double want = 0;
        for (int64_t j = 0; j < k; j++)
            want += (double)ha[at[c][0] * k + j] * hb[j * n + at[c][1]];
        float got = 0;
        if (gpu_dtoh(g, &got, s.c + (uint64_t)(at[c][0] * n + at[c][1]) * 4, 4, &e) != GL_OK ||
            got != (float)want) {
            snprintf(out->note, sizeof out->note, "cuBLAS failed: C[%lld][%lld] is %g, not %g",
                     (long long)at[c][0], (long long)at[c][1], (double)got, want);
            goto done;
        }
    }
    gl_time_stats ts;
    gl_worker_time_stats_of(times, GL_CUBLAS_REPS, &ts);
    out->ms = ts.median_ms;
    out->gflops = out->ms > 0 ? 2.0 * (double)m * (double)n * (double)k / out->ms / 1e6 : 0;
    out->ran = out->ms > 0;
    snprintf(out->note, sizeof out->note, "cuBLAS %s (%.120s), %lld x %lld x %lld",
             f16 ? "cublasGemmEx, FP16 tensor-core math" : "cublasSgemm_v2", libname, (long long)m,
             (long long)n, (long long)k);
done:
    if (s.h)
        f.p_cublasDestroy_v2(s.h);
    /* device buffers go with the worker's context (gpu_close or the process's exit) */
    free(ha);
    free(hb);
    /* lib stays loaded: cuBLAS may have started threads, and the worker exits soon */
}

void gl_cublas_library_line(const gl_library_run *lib, double kernel_gflops, double kernel_gbs,
                            char *buf, size_t len)
{
    if (!lib->ran) {
        snprintf(buf, len, "%s", lib->note);
        return;
    }
    const int cub = strncmp(lib->note, "CUB ", 4) == 0;
    const double rate = cub ? lib->gbs : lib->gflops, mine = cub ? kernel_gbs : kernel_gflops;
    int used = snprintf(buf, len, "%s: %.0f %s in %.4g ms (%s)", cub ? "CUB" : "cuBLAS", rate,
                        cub ? "GB/s" : "GFLOP/s", lib->ms, lib->note + (cub ? 4 : 7));
    if (mine > 0 && rate > 0 && used > 0 && (size_t)used < len)
        snprintf(buf + used, len - (size_t)used, ", yours is %.0f%% of it", 100.0 * mine / rate);
}
