/* test_gpu.c — the GPU back end: the worker process (protocol, time limit,
 * a dying worker), CUDA faults reported by name with the advice to use the simulator,
 * timing statistics and rates, the spec's declared work, the no-driver path, and --time
 * on the simulator. Run from the repository root.
 *
 * Three layers, so that all but the last run without a GPU:
 *  - "worker": the protocol with fake child bodies (gl_worker_set_body);
 *  - "fake driver": the real GPU path (gpu.c, worker.c, run.c) against
 *    tests/gpu/fake_libcuda.c, built here with cc and loaded through GPULEARN_LIBCUDA;
 *  - "real gpu": tests/gpu/ kernels on a real GPU; they print "SKIP: no GPU" without one.
 */
#include <check.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runtime/backend.h"
#include "runtime/cub.h"
#include "runtime/cublas.h"
#include "runtime/worker.h"
#include "trace/perfetto.h"

static char tmp_root[256]; /* temporary folder of this program (cache, fake driver) */
static char fake_lib[400]; /* path of the built fake libcuda, "" if it could not be built */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Loads a spec file (must succeed). */
static void load(const char *path, gl_spec *s)
{
    gl_error err = {0};
    ck_assert_msg(spec_load_file(path, s, &err) == GL_OK, "%s", err.msg);
}

/* No child process left behind (Check runs each test in its own process). */
static void assert_no_children(void)
{
    errno = 0;
    ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
    ck_assert_int_eq(errno, ECHILD);
}

/* ------------------------------------------------------------ worker protocol */

/* Fake bodies: what a child might do. */
static void body_ok(gl_worker_chan *ch, const gl_worker_job *job)
{
    gl_worker_send(ch, GL_WORKER_MSG_PHASE, GL_WORKER_PHASE_OPENED, NULL, 0);
    gl_worker_send(ch, GL_WORKER_MSG_PHASE, GL_WORKER_PHASE_KERNEL, NULL, 0);
    gl_worker_send(ch, GL_WORKER_MSG_PHASE, GL_WORKER_PHASE_HOST, NULL, 0);
    gl_worker_send(ch, GL_WORKER_MSG_STDOUT, 0, "hello\n", 6);
    for (int i = 0; i < job->spec->nargs; i++) {
        if (!job->spec->args[i].is_ptr)
            continue;
        size_t n = job->buffers[i].bytes;
        unsigned char *b = malloc(n);
        memset(b, 0x42, n);
        gl_worker_send(ch, GL_WORKER_MSG_BUFFER, (uint32_t)i, b, n);
        free(b);
    }
    double t[3] = {3, 1, 2};
    gl_worker_send(ch, GL_WORKER_MSG_TIMES, 0, t, sizeof t);
    gl_worker_send(ch, GL_WORKER_MSG_DONE, GL_OK, NULL, 0);
}

static void body_sleep_in_kernel(gl_worker_chan *ch, const gl_worker_job *job)
{
    (void)job;
    gl_worker_send(ch, GL_WORKER_MSG_PHASE, GL_WORKER_PHASE_OPENED, NULL, 0);
    gl_worker_send(ch, GL_WORKER_MSG_PHASE, GL_WORKER_PHASE_KERNEL, NULL, 0);
    sleep(60);
}

static void body_crash(gl_worker_chan *ch, const gl_worker_job *job)
{
    (void)ch, (void)job;
    raise(SIGSEGV);
}

static void body_no_done(gl_worker_chan *ch, const gl_worker_job *job)
{
    (void)job;
    gl_worker_send(ch, GL_WORKER_MSG_STDOUT, 0, "partial", 7);
}

static void body_garbage(gl_worker_chan *ch, const gl_worker_job *job)
{
    (void)job;
    gl_worker_send(ch, 99, 0, "??", 2);
    sleep(60);
}

static void body_wrong_buffer_size(gl_worker_chan *ch, const gl_worker_job *job)
{
    (void)job;
    gl_worker_send(ch, GL_WORKER_MSG_BUFFER, 1, "abc", 3);
    sleep(60);
}

static void body_cuda_fault(gl_worker_chan *ch, const gl_worker_job *job)
{
    (void)job;
    const char *m = "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered "
                    "(cuCtxSynchronize)";
    gl_worker_send(ch, GL_WORKER_MSG_PHASE, GL_WORKER_PHASE_OPENED, NULL, 0);
    gl_worker_send(ch, GL_WORKER_MSG_ERROR, GL_ERR_FAULT, m, strlen(m));
    gl_worker_send(ch, GL_WORKER_MSG_DONE, GL_ERR_FAULT, NULL, 0);
}

/* A job over tests/cli/saxpy.json with its initial buffers. */
typedef struct fixture {
    gl_spec spec;
    gl_buffer *buffers;
    uint64_t slots[8];
    gl_worker_job job;
} fixture;

static void fixture_init(fixture *f, double timeout_s)
{
    memset(f, 0, sizeof *f);
    load("tests/cli/saxpy.json", &f->spec);
    gl_error err = {0};
    ck_assert_int_eq(spec_buffers_new(&f->spec, &f->buffers, &err), GL_OK);
    f->job = (gl_worker_job){.spec = &f->spec,
                             .ptx = "",
                             .kernel = "saxpy",
                             .buffers = f->buffers,
                             .slots = f->slots,
                             .timeout_s = timeout_s};
}

static void fixture_free(fixture *f)
{
    spec_buffers_free(f->buffers, f->spec.nargs);
    spec_free(&f->spec);
}

START_TEST(test_worker_streams_buffers_printf_and_times_to_the_parent)
{
    fixture f;
    fixture_init(&f, 5);
    gl_worker_set_body(body_ok);
    gl_worker_result r;
    gl_error err = {0};
    ck_assert_msg(gl_worker_run(&f.job, &r, &err) == GL_OK, "%s", err.msg);
    ck_assert_int_eq(r.opened, 1);
    ck_assert_int_eq(r.buffers_back, 2);
    ck_assert_str_eq(r.stdout_text, "hello\n");
    ck_assert_int_eq(r.ntimes, 3);
    ck_assert(r.times_ms[0] == 3 && r.times_ms[2] == 2);
    const unsigned char *y = f.buffers[2].data;
    ck_assert_uint_eq(y[0], 0x42);
    ck_assert_uint_eq(y[f.buffers[2].bytes - 1], 0x42);
    gl_worker_result_free(&r);
    assert_no_children();
    fixture_free(&f);
}
END_TEST

START_TEST(test_worker_past_the_time_limit_is_killed_and_the_next_job_works)
{
    fixture f;
    fixture_init(&f, 0.3);
    gl_worker_set_body(body_sleep_in_kernel);
    gl_worker_result r;
    gl_error err = {0};
    double t0 = now_s();
    ck_assert_int_eq(gl_worker_run(&f.job, &r, &err), GL_ERR_FAULT);
    double took = now_s() - t0;
    ck_assert_msg(took >= 0.3 && took < 5, "took %.2f s", took);
    ck_assert_int_eq(r.fault, GL_WORKER_TIMEOUT);
    ck_assert_str_eq(err.msg, "the kernel ran longer than 0.3 s and was stopped");
    ck_assert_int_eq(gl_exit_code(err.status), 1);
    gl_worker_result_free(&r);
    assert_no_children();
    gl_worker_set_body(body_ok);
    ck_assert_msg(gl_worker_run(&f.job, &r, &err) == GL_OK, "%s", err.msg);
    ck_assert_int_eq(r.buffers_back, 2);
    gl_worker_result_free(&r);
    fixture_free(&f);
}
END_TEST

START_TEST(test_worker_that_dies_is_reported_with_its_signal)
{
    fixture f;
    fixture_init(&f, 5);
    gl_worker_set_body(body_crash);
    gl_worker_result r;
    gl_error err = {0};
    ck_assert_int_eq(gl_worker_run(&f.job, &r, &err), GL_ERR_CUDA);
    ck_assert_int_eq(r.fault, GL_WORKER_DIED);
    ck_assert_msg(strstr(err.msg, "the GPU worker died (signal 11"), "%s", err.msg);
    gl_worker_result_free(&r);
    gl_worker_set_body(body_no_done);
    ck_assert_int_eq(gl_worker_run(&f.job, &r, &err), GL_ERR_CUDA);
    ck_assert_str_eq(err.msg, "the GPU worker stopped before it finished");
    gl_worker_result_free(&r);
    assert_no_children();
    fixture_free(&f);
}
END_TEST

START_TEST(test_worker_breaking_the_protocol_is_stopped)
{
    fixture f;
    fixture_init(&f, 5);
    gl_worker_result r;
    gl_error err = {0};
    gl_worker_set_body(body_garbage);
    double t0 = now_s();
    ck_assert_int_eq(gl_worker_run(&f.job, &r, &err), GL_ERR_CUDA);
    ck_assert_msg(strstr(err.msg, "does not understand (type 99"), "%s", err.msg);
    gl_worker_result_free(&r);
    gl_worker_set_body(body_wrong_buffer_size);
    ck_assert_int_eq(gl_worker_run(&f.job, &r, &err), GL_ERR_CUDA);
    ck_assert_msg(strstr(err.msg, "type 2, 3 bytes"), "%s", err.msg);
    gl_worker_result_free(&r);
    ck_assert(now_s() - t0 < 5);
    assert_no_children();
    fixture_free(&f);
}
END_TEST

START_TEST(test_worker_cuda_fault_carries_the_error_name)
{
    fixture f;
    fixture_init(&f, 5);
    gl_worker_set_body(body_cuda_fault);
    gl_worker_result r;
    gl_error err = {0};
    ck_assert_int_eq(gl_worker_run(&f.job, &r, &err), GL_ERR_FAULT);
    ck_assert_int_eq(r.fault, GL_WORKER_CUDA_FAULT);
    /* A store 1 GiB past a small buffer: the H200 (driver 580) reported
     * CUDA_ERROR_ILLEGAL_ADDRESS in most runs and CUDA_ERROR_INVALID_ADDRESS_SPACE in
     * one, depending on what lies at that address. Either is a fault named by CUDA. */
    ck_assert_msg(strcmp(r.cuda_error, "CUDA_ERROR_ILLEGAL_ADDRESS") == 0 ||
                      strcmp(r.cuda_error, "CUDA_ERROR_INVALID_ADDRESS_SPACE") == 0,
                  "%s", r.cuda_error);
    ck_assert_msg(strncmp(err.msg, "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal", 38) == 0, "%s",
                  err.msg);
    gl_worker_result_free(&r);
    fixture_free(&f);
}
END_TEST

START_TEST(test_kernel_faults_are_told_apart_from_driver_errors)
{
    ck_assert(gl_worker_is_kernel_fault("CUDA_ERROR_ILLEGAL_ADDRESS"));
    ck_assert(gl_worker_is_kernel_fault("CUDA_ERROR_MISALIGNED_ADDRESS"));
    ck_assert(gl_worker_is_kernel_fault("CUDA_ERROR_ILLEGAL_INSTRUCTION"));
    ck_assert(gl_worker_is_kernel_fault("CUDA_ERROR_ASSERT"));
    ck_assert(gl_worker_is_kernel_fault("CUDA_ERROR_LAUNCH_FAILED")); /* __trap() */
    ck_assert(!gl_worker_is_kernel_fault("CUDA_ERROR_OUT_OF_MEMORY"));
    ck_assert(!gl_worker_is_kernel_fault("CUDA_ERROR_INVALID_VALUE"));
    ck_assert(!gl_worker_is_kernel_fault("CUDA_ERROR_NO_DEVICE"));
}
END_TEST

/* ------------------------------------------------------------ timing and rates */

START_TEST(test_time_stats_median_quartiles_min_max)
{
    double odd[5] = {5, 1, 4, 2, 3};
    gl_time_stats s;
    gl_worker_time_stats_of(odd, 5, &s);
    ck_assert_int_eq(s.n, 5);
    ck_assert(s.median_ms == 3 && s.min_ms == 1 && s.max_ms == 5);
    ck_assert(s.q1_ms == 2 && s.q3_ms == 4);
    double even[4] = {4, 3, 2, 1};
    gl_worker_time_stats_of(even, 4, &s);
    ck_assert(s.median_ms == 2.5 && s.q1_ms == 1.75 && s.q3_ms == 3.25);
    double one[1] = {7};
    gl_worker_time_stats_of(one, 1, &s);
    ck_assert(s.median_ms == 7 && s.q1_ms == 7 && s.q3_ms == 7);
}
END_TEST

START_TEST(test_rates_use_declared_work_else_estimate_from_buffers)
{
    gl_spec s;
    load("tests/gpu/reduce_small.json", &s);
    ck_assert(s.bytes_moved == 4096 * 4 + 4);
    ck_assert(s.flops == 0);
    gl_timing t = {.median_ms = 0.001};
    gl_run_timing_rates(&s, 1000, &t);
    ck_assert_int_eq(t.bytes_estimated, 0);
    ck_assert_msg(t.gbs > 16.3879 && t.gbs < 16.3881, "%g", t.gbs); /* 16388 B / 1 us */
    ck_assert_msg(t.pct_of_peak > 1.638 && t.pct_of_peak < 1.640, "%g", t.pct_of_peak);
    ck_assert(t.gflops == 0);
    s.bytes_moved = 0; /* not declared: the buffers' total size, 4096*4 + 4 bytes too */
    s.flops = 4096;
    gl_run_timing_rates(&s, 0, &t);
    ck_assert_int_eq(t.bytes_estimated, 1);
    ck_assert(t.bytes_moved == 4096 * 4 + 4);
    ck_assert(t.pct_of_peak == 0);
    ck_assert_msg(t.gflops > 4.095 && t.gflops < 4.097, "%g", t.gflops);
    spec_free(&s);
}
END_TEST

START_TEST(test_spec_declares_bytes_moved_and_flops_as_expressions)
{
    const char *text = "{\"source\": \"reduce_big.cu\", \"kernel\": \"reduce_sum\", "
                       "\"grid\": [1,1,1], \"block\": [32,1,1], \"bytes_moved\": \"n*4 + 4\", "
                       "\"flops\": 1.5e9, \"args\": []}";
    cJSON *j = cJSON_Parse(text);
    gl_vars v = {.names = {"n"}, .values = {1000}, .count = 1};
    gl_spec s;
    gl_error err = {0};
    ck_assert_msg(spec_from_json(j, "k.json", "tests/gpu", &v, &s, &err) == GL_OK, "%s", err.msg);
    ck_assert(s.bytes_moved == 4004);
    ck_assert(s.flops == 1.5e9);
    spec_free(&s);
    cJSON_Delete(j);
    j = cJSON_Parse("{\"source\": \"reduce_big.cu\", \"kernel\": \"k\", \"grid\": [1,1,1], "
                    "\"block\": [1,1,1], \"bytes_moved\": -3}");
    ck_assert_int_eq(spec_from_json(j, "k.json", "tests/gpu", NULL, &s, &err), GL_ERR_INPUT);
    ck_assert_msg(strstr(err.msg, "bytes_moved: must be a number >= 0"), "%s", err.msg);
    spec_free(&s);
    cJSON_Delete(j);
}
END_TEST

/* "reference_library": {"sgemm": [M, N, K]} in a spec (numbers or expressions), its
 * errors, libcublas missing named in the note, the Result's line, and the worker's
 * LIBRARY message reaching the parent (a fake body: no GPU needed). */
static void body_library(gl_worker_chan *ch, const gl_worker_job *job)
{
    (void)job;
    gl_library_run lib = {.asked = 1, .ran = 1, .ms = 0.5, .gflops = 4000};
    snprintf(lib.note, sizeof lib.note, "cuBLAS cublasSgemm_v2 (libcublas.so.13), 1 x 1 x 1");
    gl_worker_send(ch, GL_WORKER_MSG_LIBRARY, 0, &lib, sizeof lib);
    gl_worker_send(ch, GL_WORKER_MSG_DONE, GL_OK, NULL, 0);
}

START_TEST(test_spec_reference_library_and_the_cublas_line)
{
    cJSON *j = cJSON_Parse("{\"source\": \"reduce_big.cu\", \"kernel\": \"k\", \"grid\": [1], "
                           "\"block\": [1], \"reference_library\": {\"sgemm\": [\"n\", 50, "
                           "\"n / 2\"]}, \"args\": []}");
    gl_vars v = {.names = {"n"}, .values = {70}, .count = 1};
    gl_spec s;
    gl_error err = {0};
    ck_assert_msg(spec_from_json(j, "k.json", "tests/gpu", &v, &s, &err) == GL_OK, "%s", err.msg);
    ck_assert(s.ref_sgemm[0] == 70 && s.ref_sgemm[1] == 50 && s.ref_sgemm[2] == 35);
    ck_assert_int_eq(s.ref_gemm_f16, 0);
    spec_free(&s);
    cJSON_Delete(j);
    /* gemm_f16: the same sizes, FP16 tensor-core math (lesson 13 beside its wmma GEMM) */
    j = cJSON_Parse("{\"source\": \"reduce_big.cu\", \"kernel\": \"k\", \"grid\": [1], "
                    "\"block\": [1], \"reference_library\": {\"gemm_f16\": [64, 32, 16]}, "
                    "\"args\": []}");
    ck_assert_msg(spec_from_json(j, "k.json", "tests/gpu", NULL, &s, &err) == GL_OK, "%s", err.msg);
    ck_assert(s.ref_sgemm[0] == 64 && s.ref_sgemm[1] == 32 && s.ref_sgemm[2] == 16);
    ck_assert_int_eq(s.ref_gemm_f16, 1);
    spec_free(&s);
    cJSON_Delete(j);
    const char *bad[] = {"{\"sgemm\": [1, 2]}", "{\"dgemm\": [1, 2, 3]}", "{\"sgemm\": [1, 0, 3]}"};
    const char *why[] = {"reference_library: must be {\"sgemm\": [M, N, K]}, {\"gemm_f16",
                         "reference_library: must be {\"sgemm\": [M, N, K]}, {\"gemm_f16",
                         "reference_library.sgemm[1]: must be an integer from 1 to 1048576"};
    for (int i = 0; i < 3; i++) {
        char text[300];
        snprintf(text, sizeof text,
                 "{\"source\": \"reduce_big.cu\", \"kernel\": \"k\", \"grid\": [1], \"block\": "
                 "[1], \"reference_library\": %s, \"args\": []}",
                 bad[i]);
        j = cJSON_Parse(text);
        ck_assert_int_eq(spec_from_json(j, "k.json", "tests/gpu", NULL, &s, &err), GL_ERR_INPUT);
        ck_assert_msg(strstr(err.msg, why[i]), "%s", err.msg);
        spec_free(&s);
        cJSON_Delete(j);
    }

    /* CUB: the routine and n, and the Result's line in GB/s */
    j = cJSON_Parse("{\"source\": \"reduce_big.cu\", \"kernel\": \"k\", \"grid\": [1], "
                    "\"block\": [1], \"reference_library\": {\"cub_exclusive_sum\": [\"4 * "
                    "n\"]}, \"args\": []}");
    ck_assert_msg(spec_from_json(j, "k.json", "tests/gpu", &v, &s, &err) == GL_OK, "%s", err.msg);
    ck_assert_int_eq(s.ref_cub, GL_CUB_EXCLUSIVE_SUM);
    ck_assert(s.ref_cub_n == 280 && s.ref_sgemm[0] == 0);
    spec_free(&s);
    cJSON_Delete(j);
    gl_library_run cub = {.asked = 1, .ran = 1, .ms = 0.05, .gbs = 2684.4};
    snprintf(cub.note, sizeof cub.note, "CUB cub::DeviceReduce::Sum, 16777219 ints");
    char cline[400];
    gl_cublas_library_line(&cub, 0, 3100, cline, sizeof cline);
    ck_assert_str_eq(cline, "CUB: 2684 GB/s in 0.05 ms (cub::DeviceReduce::Sum, 16777219 ints), "
                            "yours is 115% of it");
    /* no reference source beside the prelude: skipped, saying why */
    setenv("GPULEARN_PRELUDE_DIR", "/nonexistent", 1);
    char so[4096], cwhy[240];
    if (gl_cub_prepare(90, so, sizeof so, cwhy, sizeof cwhy) == 0)
        ck_assert_msg(strstr(cwhy, "CUB skipped"), "%s", cwhy);
    unsetenv("GPULEARN_PRELUDE_DIR");

    setenv("GPULEARN_LIBCUBLAS", "/nonexistent/libcublas.so.13", 1);
    char name[200];
    ck_assert_ptr_null(gl_cublas_open(name, sizeof name));
    ck_assert_str_eq(name, "libcublas not found (GPULEARN_LIBCUBLAS=/nonexistent/libcublas.so.13)");
    unsetenv("GPULEARN_LIBCUBLAS");

    gl_library_run lib = {.asked = 1, .ran = 1, .ms = 0.5, .gflops = 4000};
    snprintf(lib.note, sizeof lib.note, "cuBLAS cublasSgemm_v2 (libcublas.so.13), 1 x 1 x 1");
    char line[400];
    gl_cublas_library_line(&lib, 1000, 0, line, sizeof line);
    ck_assert_str_eq(line, "cuBLAS: 4000 GFLOP/s in 0.5 ms (cublasSgemm_v2 (libcublas.so.13), "
                           "1 x 1 x 1), yours is 25% of it");
    lib.ran = 0;
    snprintf(lib.note, sizeof lib.note, "cuBLAS skipped: libcublas not found");
    gl_cublas_library_line(&lib, 1000, 0, line, sizeof line);
    ck_assert_str_eq(line, "cuBLAS skipped: libcublas not found");

    fixture f;
    fixture_init(&f, 5);
    gl_worker_set_body(body_library);
    gl_worker_result r;
    ck_assert_msg(gl_worker_run(&f.job, &r, &err) == GL_OK, "%s", err.msg);
    ck_assert(r.library.asked && r.library.ran && r.library.gflops == 4000);
    ck_assert_str_eq(r.library.note, "cuBLAS cublasSgemm_v2 (libcublas.so.13), 1 x 1 x 1");
    gl_worker_result_free(&r);
    gl_worker_set_body(NULL);
    assert_no_children();
    fixture_free(&f);
}
END_TEST

/* ------------------------------------------------------------ no driver, --time on sim */

START_TEST(test_no_driver_is_reported_and_auto_falls_back_to_the_simulator)
{
    setenv("GPULEARN_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    unsetenv("GPULEARN_NO_GPU");
    gl_spec s;
    load("tests/cli/saxpy.json", &s);
    gl_run_opts opts = {.backend = GL_BACKEND_GPU};
    gl_run_result r;
    gl_error err = {0};
    ck_assert_int_eq(gl_run_spec(&s, &opts, &r, &err), GL_ERR_NODEVICE);
    ck_assert_msg(strstr(err.msg, "no NVIDIA driver found (/nonexistent/libcuda.so.1: ") ||
                      strstr(err.msg, "built without cuda.h"),
                  "%s", err.msg);
    gl_run_result_free(&r);
    opts.backend = GL_BACKEND_AUTO;
    ck_assert_msg(gl_run_spec(&s, &opts, &r, &err) == GL_OK, "%s", err.msg);
    ck_assert_int_eq(r.backend, GL_BACKEND_SIM);
    ck_assert_msg(strstr(r.note, ": running on the simulator"), "%s", r.note);
    float y1;
    memcpy(&y1, (char *)r.buffers[2].data + 4, 4);
    ck_assert(y1 == 0.25f); /* 2.5 * 0.5 - 1 */
    gl_run_result_free(&r);
    gl_device_info info;
    char note[512];
    ck_assert_int_eq(gl_run_device_query(GL_BACKEND_GPU, &info, note, sizeof note, &err),
                     GL_ERR_NODEVICE);
    ck_assert_int_eq(gl_run_device_query(GL_BACKEND_AUTO, &info, note, sizeof note, &err), GL_OK);
    ck_assert_int_eq(info.is_simulator, 1);
    ck_assert_msg(strstr(note, "showing the simulator's model"), "%s", note);
    spec_free(&s);
    assert_no_children();
}
END_TEST

START_TEST(test_time_on_the_simulator_says_timing_needs_a_gpu)
{
    gl_spec s;
    load("tests/cli/saxpy.json", &s);
    gl_run_opts opts = {.backend = GL_BACKEND_SIM, .time_reps = 5, .time_warmup = 1};
    gl_run_result r;
    gl_error err = {0};
    ck_assert_msg(gl_run_spec(&s, &opts, &r, &err) == GL_OK, "%s", err.msg);
    ck_assert_int_eq(r.timing.reps, 0);
    ck_assert_msg(strstr(r.note, "timing needs a GPU"), "%s", r.note);
    /* the default target, sm_90 (a clang that knows no sm_90 compiles for its newest) */
    ck_assert_msg(strstr(r.compile_command, "compute_90") ||
                      strstr(r.compile_command, "--cuda-gpu-arch=sm_"),
                  "%s", r.compile_command);
    gl_run_result_free(&r);
    spec_free(&s);
}
END_TEST

/* ------------------------------------------------------------ the fake driver */

/* Points the GPU back end at the fake driver in `mode`; 0 (after SKIP) if unavailable. */
static int use_fake(const char *mode)
{
    if (!fake_lib[0]) {
        printf("SKIP: fake driver not built (no cc or no cuda.h)\n");
        return 0;
    }
    setenv("GPULEARN_LIBCUDA", fake_lib, 1);
    setenv("FAKE_CUDA", mode, 1);
    unsetenv("GPULEARN_NO_GPU");
    gl_device_info info;
    char note[512];
    gl_error err = {0};
    if (gl_run_device_query(GL_BACKEND_GPU, &info, note, sizeof note, &err) != GL_OK &&
        strstr(err.msg, "built without cuda.h")) {
        printf("SKIP: gpulearn built without cuda.h\n");
        return 0;
    }
    return 1;
}

START_TEST(test_fake_driver_run_brings_back_buffers_printf_and_timing)
{
    if (!use_fake("ok"))
        return;
    gl_spec s;
    load("tests/cli/saxpy.json", &s);
    s.bytes_moved = 3e9;
    gl_run_opts opts = {.backend = GL_BACKEND_GPU, .time_reps = 5, .time_warmup = 1};
    gl_run_result r;
    gl_error err = {0};
    ck_assert_msg(gl_run_spec(&s, &opts, &r, &err) == GL_OK, "%s", err.msg);
    ck_assert_int_eq(r.backend, GL_BACKEND_GPU);
    ck_assert_str_eq(r.stdout_text, "fake printf from saxpy\n"); /* timed runs' dropped */
    float x3, y3;
    memcpy(&x3, (char *)r.buffers[1].data + 12, 4);
    memcpy(&y3, (char *)r.buffers[2].data + 12, 4);
    ck_assert(x3 == 1.5f && y3 == -1.0f); /* the fake kernel changes nothing */
    /* Elapsed times 1,2,3,4,5,1,...: the first run takes 1, the warm-up 2, the timed
     * runs 3,4,5,1,2. */
    ck_assert(r.elapsed_ms == 1); /* the first run's time */
    ck_assert_int_eq(r.timing.reps, 5);
    ck_assert_int_eq(r.timing.warmup, 1);
    ck_assert(r.timing.median_ms == 3 && r.timing.min_ms == 1 && r.timing.max_ms == 5);
    ck_assert(r.timing.q1_ms == 2 && r.timing.q3_ms == 4);
    ck_assert_str_eq(r.timing.device, "Fake GPU");
    /* 2 * 2619 MHz * 5120 bits / 8 = 3352.32 GB/s; 3e9 B in 3 ms = 1000 GB/s */
    ck_assert_msg(r.timing.peak_gbs > 3352.3 && r.timing.peak_gbs < 3352.4, "%g",
                  r.timing.peak_gbs);
    ck_assert_msg(r.timing.gbs > 999.99 && r.timing.gbs < 1000.01, "%g", r.timing.gbs);
    ck_assert_int_eq(r.timing.bytes_estimated, 0);
    /* occupancy from the driver: 3 blocks per SM (the fake's figure, below the thread
     * limit: registers), of 132 SMs */
    ck_assert_int_eq(r.occupancy.valid, 1);
    ck_assert_int_eq(r.occupancy.regs_per_thread, 40);
    ck_assert_int_eq(r.occupancy.blocks_per_sm, 3);
    ck_assert_int_eq(r.occupancy.sm_count, 132);
    ck_assert_uint_eq(r.occupancy.shared_bytes, 1024 + s.dynamic_shared_bytes);
    ck_assert_str_eq(r.occupancy.limiter, "registers");
    gl_run_result_free(&r);
    spec_free(&s);
    assert_no_children();
}
END_TEST

START_TEST(test_fake_driver_fault_is_named_with_advice_and_next_launch_works)
{
    if (!use_fake("fault"))
        return;
    gl_spec s;
    load("tests/cli/saxpy.json", &s);
    gl_run_opts opts = {.backend = GL_BACKEND_GPU};
    gl_run_result r;
    gl_error err = {0};
    ck_assert_int_eq(gl_run_spec(&s, &opts, &r, &err), GL_ERR_FAULT);
    ck_assert_int_eq(gl_exit_code(err.status), 1);
    ck_assert_int_eq(r.fault.kind, GL_FAULT_GPU);
    ck_assert_int_eq(r.fault.warp, -1); /* the GPU names no thread */
    /* A store 1 GiB past a small buffer: the H200 (driver 580) reported
     * CUDA_ERROR_ILLEGAL_ADDRESS in most runs and CUDA_ERROR_INVALID_ADDRESS_SPACE in
     * one, depending on what lies at that address. Either is a fault named by CUDA. */
    ck_assert_msg(strcmp(r.fault.cuda_error, "CUDA_ERROR_ILLEGAL_ADDRESS") == 0 ||
                      strcmp(r.fault.cuda_error, "CUDA_ERROR_INVALID_ADDRESS_SPACE") == 0,
                  "%s", r.fault.cuda_error);
    ck_assert_msg(strncmp(r.fault.message, "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal", 38) == 0, "%s",
                  r.fault.message);
    ck_assert_msg(strstr(err.msg, "tests/cli/saxpy.cu: kernel 'saxpy' faulted on the GPU: "
                                  "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access"),
                  "%s", err.msg);
    ck_assert_msg(strstr(err.msg, "\nRe-run it on the simulator to find the faulting access: "
                                  "gpulearn run tests/cli/saxpy.json --backend sim"),
                  "%s", err.msg);
    ck_assert_str_eq(r.stdout_text, "fake printf from saxpy\n"); /* printf before it */
    gl_run_result_free(&r);
    setenv("FAKE_CUDA", "ok", 1);
    ck_assert_msg(gl_run_spec(&s, &opts, &r, &err) == GL_OK, "%s", err.msg);
    ck_assert_int_eq(r.fault.kind, GL_FAULT_NONE);
    gl_run_result_free(&r);
    spec_free(&s);
    assert_no_children();
}
END_TEST

START_TEST(test_fake_driver_endless_kernel_is_stopped_and_next_launch_works)
{
    if (!use_fake("hang"))
        return;
    gl_spec s;
    load("tests/cli/saxpy.json", &s);
    gl_run_opts opts = {.backend = GL_BACKEND_AUTO, .timeout_s = 0.5};
    gl_run_result r;
    gl_error err = {0};
    double t0 = now_s();
    ck_assert_int_eq(gl_run_spec(&s, &opts, &r, &err), GL_ERR_FAULT);
    ck_assert(now_s() - t0 < 5);
    ck_assert_int_eq(r.backend, GL_BACKEND_GPU); /* no fallback once the GPU opened */
    ck_assert_int_eq(r.fault.kind, GL_FAULT_GPU);
    ck_assert_str_eq(r.fault.cuda_error, "");
    ck_assert_str_eq(r.fault.message, "the kernel ran longer than 0.5 s and was stopped");
    ck_assert_msg(strstr(err.msg, "kernel 'saxpy' ran longer than 0.5 s on the GPU and was "
                                  "stopped: an endless loop?\nRun it on the simulator to see "
                                  "where it loops: gpulearn run tests/cli/saxpy.json "
                                  "--backend sim"),
                  "%s", err.msg);
    gl_run_result_free(&r);
    assert_no_children();
    setenv("FAKE_CUDA", "ok", 1);
    ck_assert_msg(gl_run_spec(&s, &opts, &r, &err) == GL_OK, "%s", err.msg);
    gl_run_result_free(&r);
    spec_free(&s);
}
END_TEST

START_TEST(test_fake_driver_crash_and_no_device)
{
    if (!use_fake("crash"))
        return;
    gl_spec s;
    load("tests/cli/saxpy.json", &s);
    gl_run_opts opts = {.backend = GL_BACKEND_GPU};
    gl_run_result r;
    gl_error err = {0};
    ck_assert_int_eq(gl_run_spec(&s, &opts, &r, &err), GL_ERR_CUDA);
    ck_assert_msg(strstr(err.msg, "the GPU worker died (signal 11"), "%s", err.msg);
    gl_run_result_free(&r);
    setenv("FAKE_CUDA", "nodevice", 1);
    ck_assert_int_eq(gl_run_spec(&s, &opts, &r, &err), GL_ERR_NODEVICE);
    ck_assert_msg(strstr(err.msg, "CUDA_ERROR_NO_DEVICE"), "%s", err.msg);
    gl_run_result_free(&r);
    opts.backend = GL_BACKEND_AUTO;
    ck_assert_int_eq(gl_run_spec(&s, &opts, &r, &err), GL_OK);
    ck_assert_int_eq(r.backend, GL_BACKEND_SIM);
    gl_run_result_free(&r);
    spec_free(&s);
    assert_no_children();
}
END_TEST

START_TEST(test_fake_driver_device_properties)
{
    if (!use_fake("ok"))
        return;
    gl_device_info d;
    char note[512];
    gl_error err = {0};
    ck_assert_msg(gl_run_device_query(GL_BACKEND_AUTO, &d, note, sizeof note, &err) == GL_OK, "%s",
                  err.msg);
    ck_assert_str_eq(d.name, "Fake GPU");
    ck_assert_int_eq(d.is_simulator, 0);
    ck_assert_int_eq(d.compute_major, 9);
    ck_assert_int_eq(d.sm_count, 132);
    ck_assert_int_eq(d.max_threads_per_sm, 2048);
    ck_assert_int_eq(d.regs_per_sm, 65536);
    ck_assert_int_eq(d.max_blocks_per_sm, 32);
    ck_assert_uint_eq(d.l2_bytes, 50u << 20);
    ck_assert_int_eq(d.mem_clock_khz, 2619000);
    ck_assert_int_eq(d.mem_bus_bits, 5120);
    ck_assert_str_eq(d.driver, "13.0");
    ck_assert_str_eq(note, "");
}
END_TEST

/* ------------------------------------------------------------ Perfetto JSON */

/* Runs spec on the simulator with an issue-level trace and returns its Chrome Trace
 * Event JSON, parsed. */
static cJSON *sim_trace_json(const char *spec_path, size_t max_events)
{
    gl_spec s;
    load(spec_path, &s);
    gl_run_opts opts = {
        .backend = GL_BACKEND_SIM, .trace_level = TRACE_ISSUE, .trace_max_events = max_events};
    gl_run_result r;
    gl_error err = {0};
    ck_assert_msg(gl_run_spec(&s, &opts, &r, &err) == GL_OK, "%s", err.msg);
    ck_assert_ptr_nonnull(r.trace);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    ck_assert_int_eq(gl_perfetto_write(m, r.trace, NULL), GL_PERFETTO_OK);
    fclose(m);
    cJSON *j = cJSON_Parse(text);
    ck_assert_msg(j != NULL, "not JSON: %.200s", text);
    free(text);
    gl_run_result_free_trace(&r);
    gl_run_result_free(&r);
    spec_free(&s);
    return j;
}

/* Counts events of phase ph whose name starts with prefix (NULL: any). */
static int count_events(const cJSON *j, const char *ph, const char *prefix)
{
    const cJSON *evs = cJSON_GetObjectItemCaseSensitive(j, "traceEvents");
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, evs)
    {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(e, "ph");
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
        if (strcmp(p->valuestring, ph) != 0)
            continue;
        if (prefix && strncmp(name->valuestring, prefix, strlen(prefix)) != 0)
            continue;
        if (strcmp(ph, "X") == 0) {
            ck_assert(cJSON_GetObjectItemCaseSensitive(e, "ts")->valuedouble >= 0);
            ck_assert(cJSON_GetObjectItemCaseSensitive(e, "dur")->valuedouble >= 1);
        }
        n++;
    }
    return n;
}

START_TEST(test_trace_json_has_blocks_on_sms_warps_and_barrier_waits)
{
    cJSON *j = sim_trace_json("tests/gpu/reduce_small.json", 0);
    /* 4 blocks of 256 threads: 4 block slices, 8 warp tracks each */
    ck_assert_int_eq(count_events(j, "X", "block ("), 4);
    ck_assert_int_eq(count_events(j, "M", "thread_name"), 4 * 9);
    ck_assert_int_ge(count_events(j, "M", "process_name"), 1);
    ck_assert_int_ge(count_events(j, "X", "running"), 4 * 8);
    /* the tree's __syncthreads (reduce_big.cu line 10 and 14) */
    ck_assert_int_ge(count_events(j, "X", "bar.sync wait, line 10"), 1);
    ck_assert_int_eq(count_events(j, "i", "trace truncated"), 0);
    const cJSON *other = cJSON_GetObjectItemCaseSensitive(j, "otherData");
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(other, "kernel")->valuestring, "reduce_sum");
    cJSON_Delete(j);
}
END_TEST

START_TEST(test_trace_json_shows_printf_and_marks_a_truncated_trace)
{
    cJSON *j = sim_trace_json("tests/corpus/hello.json", 0);
    ck_assert_int_ge(count_events(j, "i", "printf"), 1);
    cJSON_Delete(j);
    j = sim_trace_json("tests/gpu/reduce_small.json", 100);
    ck_assert_int_eq(count_events(j, "i", "trace truncated"), 1);
    cJSON_Delete(j);
}
END_TEST

/* ------------------------------------------------------------ a real GPU */

/* Whether a real GPU answers; prints SKIP when not. */
static int real_gpu(void)
{
    unsetenv("GPULEARN_LIBCUDA");
    unsetenv("GPULEARN_NO_GPU");
    gl_device_info d;
    char note[512];
    gl_error err = {0};
    if (gl_run_device_query(GL_BACKEND_GPU, &d, note, sizeof note, &err) != GL_OK) {
        printf("SKIP: no GPU (%s)\n", err.msg);
        return 0;
    }
    return 1;
}

/* Runs saxpy on the GPU and checks exact values: the launch after a fault works. */
static void saxpy_on_gpu_works(void)
{
    gl_spec s;
    load("tests/cli/saxpy.json", &s);
    gl_run_opts opts = {.backend = GL_BACKEND_GPU};
    gl_run_result r;
    gl_error err = {0};
    ck_assert_msg(gl_run_spec(&s, &opts, &r, &err) == GL_OK, "%s", err.msg);
    const float *y = r.buffers[2].data;
    for (int i = 0; i < 1000; i++)
        ck_assert(y[i] == 2.5f * (0.5f * (float)i) - 1.0f);
    gl_run_result_free(&r);
    spec_free(&s);
}

START_TEST(test_gpu_out_of_bounds_is_named_and_next_launch_works)
{
    if (!real_gpu())
        return;
    gl_spec s;
    load("tests/gpu/oob_far.json", &s);
    gl_run_opts opts = {.backend = GL_BACKEND_GPU};
    gl_run_result r;
    gl_error err = {0};
    ck_assert_int_eq(gl_run_spec(&s, &opts, &r, &err), GL_ERR_FAULT);
    printf("GPU fault: %s\n", err.msg);
    /* A store 1 GiB past a small buffer: the H200 (driver 580) reported
     * CUDA_ERROR_ILLEGAL_ADDRESS in most runs and CUDA_ERROR_INVALID_ADDRESS_SPACE in
     * one, depending on what lies at that address. Either is a fault named by CUDA. */
    ck_assert_msg(strcmp(r.fault.cuda_error, "CUDA_ERROR_ILLEGAL_ADDRESS") == 0 ||
                      strcmp(r.fault.cuda_error, "CUDA_ERROR_INVALID_ADDRESS_SPACE") == 0,
                  "%s", r.fault.cuda_error);
    ck_assert_msg(strstr(err.msg, "gpulearn run tests/gpu/oob_far.json --backend sim"), "%s",
                  err.msg);
    gl_run_result_free(&r);
    spec_free(&s);
    saxpy_on_gpu_works();
    assert_no_children();
}
END_TEST

START_TEST(test_gpu_endless_loop_is_stopped_after_timeout_and_next_launch_works)
{
    if (!real_gpu())
        return;
    gl_spec s;
    load("tests/gpu/endless.json", &s);
    gl_run_opts opts = {.backend = GL_BACKEND_GPU, .timeout_s = 2};
    gl_run_result r;
    gl_error err = {0};
    double t0 = now_s();
    ck_assert_int_eq(gl_run_spec(&s, &opts, &r, &err), GL_ERR_FAULT);
    double took = now_s() - t0;
    printf("GPU endless loop stopped after %.1f s: %s\n", took, err.msg);
    ck_assert_int_eq(r.fault.kind, GL_FAULT_GPU);
    ck_assert(took < 60);
    ck_assert_msg(strstr(err.msg, "ran longer than 2 s on the GPU"), "%s", err.msg);
    gl_run_result_free(&r);
    spec_free(&s);
    saxpy_on_gpu_works();
}
END_TEST

START_TEST(test_gpu_info_has_real_properties)
{
    if (!real_gpu())
        return;
    gl_device_info d;
    char note[512];
    gl_error err = {0};
    ck_assert_int_eq(gl_run_device_query(GL_BACKEND_GPU, &d, note, sizeof note, &err), GL_OK);
    printf("GPU: %s, CC %d.%d, %d SMs, %d regs/SM, %zu KiB smem/SM, L2 %zu MiB, %d MHz, "
           "%d-bit bus at %d MHz, %.0f GB/s, driver %s\n",
           d.name, d.compute_major, d.compute_minor, d.sm_count, d.regs_per_sm,
           d.shared_bytes_per_sm >> 10, d.l2_bytes >> 20, d.clock_khz / 1000, d.mem_bus_bits,
           d.mem_clock_khz / 1000, d.peak_bandwidth_gbs, d.driver);
    ck_assert(d.name[0] != '\0');
    ck_assert_int_eq(d.is_simulator, 0);
    ck_assert_int_gt(d.compute_major, 0);
    ck_assert_int_gt(d.sm_count, 0);
    ck_assert_int_eq(d.warp_size, 32);
    ck_assert_int_ge(d.max_threads_per_block, 1024);
    ck_assert_int_gt(d.regs_per_block, 0);
    ck_assert_uint_gt(d.shared_bytes_per_sm, 0);
    ck_assert_uint_gt(d.global_bytes, 0);
    ck_assert_uint_gt(d.l2_bytes, 0);
}
END_TEST

START_TEST(test_gpu_reduction_of_2_26_floats_reports_time_bandwidth_and_peak_share)
{
    if (!real_gpu())
        return;
    gl_spec s;
    load("tests/gpu/reduce_big.json", &s);
    gl_run_opts opts = {.backend = GL_BACKEND_GPU, .time_reps = 20, .time_warmup = 1};
    gl_run_result r;
    gl_error err = {0};
    ck_assert_msg(gl_run_spec(&s, &opts, &r, &err) == GL_OK, "%s", err.msg);
    float sum;
    memcpy(&sum, r.buffers[1].data, 4);
    ck_assert_msg(sum == 67108864.0f, "%g", sum);
    const gl_timing *t = &r.timing;
    printf("GPU reduce 2^26 floats: median %.4f ms (min %.4f, max %.4f), %.1f GB/s, %.1f%% of "
           "%.0f GB/s, %.2f GFLOP/s\n",
           t->median_ms, t->min_ms, t->max_ms, t->gbs, t->pct_of_peak, t->peak_gbs, t->gflops);
    ck_assert_int_eq(t->reps, 20);
    ck_assert(t->median_ms > 0 && t->min_ms <= t->median_ms && t->median_ms <= t->max_ms);
    ck_assert(t->gbs > 0);
    ck_assert_int_eq(t->bytes_estimated, 0);
    if (t->peak_gbs > 0)
        ck_assert_msg(t->pct_of_peak > 0 && t->pct_of_peak < 110, "%g", t->pct_of_peak);
    ck_assert(t->gflops > 0);
    /* the driver's occupancy figures for this kernel on this GPU */
    const gl_occupancy *o = &r.occupancy;
    printf(
        "GPU reduce occupancy: %d registers/thread, %d blocks/SM (limit %s), %.0f%% theoretical, "
        "%.0f%% achieved (estimate), %d SMs\n",
        o->regs_per_thread, o->blocks_per_sm, o->limiter, o->theoretical * 100, o->achieved * 100,
        o->sm_count);
    ck_assert_int_eq(o->valid, 1);
    ck_assert(o->regs_per_thread > 0 && o->blocks_per_sm >= 1 && o->sm_count >= 1);
    ck_assert(o->theoretical > 0 && o->theoretical <= 1 && o->achieved > 0 &&
              o->achieved <= o->theoretical);
    gl_run_result_free(&r);
    spec_free(&s);
}
END_TEST

static Suite *gpu_suite(void)
{
    Suite *s = suite_create("gpu");
    TCase *w = tcase_create("worker");
    tcase_set_timeout(w, 60);
    tcase_add_test(w, test_worker_streams_buffers_printf_and_times_to_the_parent);
    tcase_add_test(w, test_worker_past_the_time_limit_is_killed_and_the_next_job_works);
    tcase_add_test(w, test_worker_that_dies_is_reported_with_its_signal);
    tcase_add_test(w, test_worker_breaking_the_protocol_is_stopped);
    tcase_add_test(w, test_worker_cuda_fault_carries_the_error_name);
    tcase_add_test(w, test_spec_reference_library_and_the_cublas_line);
    tcase_add_test(w, test_kernel_faults_are_told_apart_from_driver_errors);
    suite_add_tcase(s, w);
    TCase *t = tcase_create("timing");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_time_stats_median_quartiles_min_max);
    tcase_add_test(t, test_rates_use_declared_work_else_estimate_from_buffers);
    tcase_add_test(t, test_spec_declares_bytes_moved_and_flops_as_expressions);
    tcase_add_test(t, test_no_driver_is_reported_and_auto_falls_back_to_the_simulator);
    tcase_add_test(t, test_time_on_the_simulator_says_timing_needs_a_gpu);
    suite_add_tcase(s, t);
    TCase *p = tcase_create("perfetto");
    tcase_set_timeout(p, 60);
    tcase_add_test(p, test_trace_json_has_blocks_on_sms_warps_and_barrier_waits);
    tcase_add_test(p, test_trace_json_shows_printf_and_marks_a_truncated_trace);
    suite_add_tcase(s, p);
    TCase *f = tcase_create("fake driver");
    tcase_set_timeout(f, 60);
    tcase_add_test(f, test_fake_driver_run_brings_back_buffers_printf_and_timing);
    tcase_add_test(f, test_fake_driver_fault_is_named_with_advice_and_next_launch_works);
    tcase_add_test(f, test_fake_driver_endless_kernel_is_stopped_and_next_launch_works);
    tcase_add_test(f, test_fake_driver_crash_and_no_device);
    tcase_add_test(f, test_fake_driver_device_properties);
    suite_add_tcase(s, f);
    TCase *g = tcase_create("real gpu");
    tcase_set_timeout(g, 300);
    tcase_add_test(g, test_gpu_out_of_bounds_is_named_and_next_launch_works);
    tcase_add_test(g, test_gpu_endless_loop_is_stopped_after_timeout_and_next_launch_works);
    tcase_add_test(g, test_gpu_info_has_real_properties);
    tcase_add_test(g, test_gpu_reduction_of_2_26_floats_reports_time_bandwidth_and_peak_share);
    suite_add_tcase(s, g);
    return s;
}

/* Builds tests/gpu/fake_libcuda.c into tmp_root (needs cc and cuda.h). */
static void build_fake_driver(void)
{
    const char *home = getenv("CUDA_HOME");
    char cmd[1200];
    snprintf(fake_lib, sizeof fake_lib, "%s/libcuda-fake.so", tmp_root);
    snprintf(cmd, sizeof cmd,
             "cc -shared -fPIC -O1 -isystem '%s/include' tests/gpu/fake_libcuda.c -o '%s' "
             ">/dev/null 2>&1",
             home && *home ? home : "/usr/local/cuda", fake_lib);
    if (system(cmd) != 0)
        fake_lib[0] = '\0';
}

int main(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(tmp_root, sizeof tmp_root, "%s/gpulearn-test-gpu-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(tmp_root)) {
        perror("mkdtemp");
        return EXIT_FAILURE;
    }
    setenv("XDG_CACHE_HOME", tmp_root, 1); /* never the user's ~/.cache */
    build_fake_driver();
    SRunner *sr = srunner_create(gpu_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_root);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp_root);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
